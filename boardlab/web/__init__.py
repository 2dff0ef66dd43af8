"""The boardlab web app (FastAPI): lobby, game pages, replays, JSON API.

Start it with ``boardlab serve`` or :func:`boardlab.web.server.run`; build
the ASGI app for tests with :func:`boardlab.web.app.create_app`.
"""
