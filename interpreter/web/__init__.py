"""The web table (``trickbook serve``, the ``web`` extra): people and bots play any rule file in the browser,
each person seeing only what their seat may see. tables.py keeps the games, lobby.py makes them, app.py serves
them (Starlette, WebSockets), static/ holds the pages (plain HTML, CSS and JavaScript, no build step)."""
