"""A bare Flask hello-world: ``bench/load.py`` serves it behind the very stack `make serve` runs
(``make serve SERVE_APP=bench.hello:app``), so the site's numbers can be read against what the stack
itself costs."""

from flask import Flask

app = Flask(__name__)


@app.get("/")
def hello() -> str:
    return "Hello, world!"
