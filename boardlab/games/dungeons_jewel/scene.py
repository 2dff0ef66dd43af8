"""Placeholder; replaced below."""
def build_scene(game, view, actions=()):
    from boardlab.engine.scene import generic_scene
    return generic_scene(view, actions)
