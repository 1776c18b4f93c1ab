"""The production stack `make serve` starts (README "Serving"; docs/serving.md):

- ``static``: the static files copied once per build into ``build/static/`` with a gzip and a
  brotli twin of each compressible file and a manifest of content hashes, for nginx to send as
  they are (``sendfile``, ``gzip_static``);
- ``settings``: every setting of the stack, read once from the environment;
- ``nginx``: the proxy's configuration, generated into the instance folder from the settings;
- ``gunicorn_conf``: the app server's configuration (sync workers on a local unix socket);
- ``__main__``: ``python -m adjudicator.serving``, which builds the static tree, writes the
  configuration and runs gunicorn and nginx until it is stopped.

Nothing here is imported by the app: the stack wraps it, the app does not know it is wrapped
(apart from trusting one proxy hop for the client address)."""
