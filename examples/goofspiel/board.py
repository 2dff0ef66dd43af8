"""Goofspiel has no board: this module is a stub.

An in-tree game package (``boardlab/games/<name>/``) is a container of the
game-package layers contract in ``pyproject.toml`` (``game`` > ``agents`` >
``features | scene`` > ``view`` > ``rules`` > ``board : content``), and
import-linter refuses a container that lacks a listed layer ("Missing layer
... board does not exist").  So a board-less game ships this one-line module
until the contract makes the layer optional.  An out-of-tree game like this one
is outside the contract (its root package is ``boardlab``); the stub is kept so
that the package can move into ``boardlab/games/`` unchanged.
"""
