"""Renderers of scenes (see :mod:`boardlab.engine.scene`): the terminal one lives here."""

from .terminal import render_scene, scene_text

__all__ = ["render_scene", "scene_text"]
