"""The ``readlens`` command that ``pip install`` puts on the PATH::

    readlens FILE|URL [options]        what a model receives from a file (``python -m readers``)
    readlens read FILE|URL [options]   the same, for a file named like a subcommand
    readlens batch PATH... --out F     a collection (``python -m readers batch``; the batch group)
    readlens app                       the app, its API and MCP tools (``python app.py``; the app group)
    readlens mcp                       the app's tools for an agent over stdio (the app group)

Reading imports neither Gradio nor anything of the app, so ``readlens FILE`` starts as fast as
``python -m readers FILE``. ``--help`` after any of them prints its help and starts nothing.

``readlens mcp`` is for agents that start their tools as a command (Claude Desktop, Claude Code,
Cursor): it starts the app in this process on a loopback port and passes each request from
standard input to the app's MCP server (Gradio serves MCP over HTTP only), so the tools are the same
six, answered the same way. Standard output carries only MCP's messages: whatever else is printed
goes to standard error.
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
from dataclasses import replace

from readers.__main__ import main as read_main

PROG = "readlens"
NEEDS_APP = "error: readlens {command} needs the app's packages: pip install 'readlens[app]' (or run make run)"
COMMANDS = f"""commands:
  {PROG} FILE|URL [options]       what a model receives from a file or a web address (above)
  {PROG} read FILE|URL [options]  the same, for a file named like one of these commands
  {PROG} batch PATH... --out F    files and folders read into one record a page (batch --help)
  {PROG} app                      the app in the browser, its API and MCP tools (app --help)
  {PROG} mcp                      the app's tools for an agent, over stdin and stdout (mcp --help)"""
SERVERS = {
    "app": (
        "Serve the app, its API and its MCP tools until stopped (Ctrl+C), as python app.py does: on "
        "http://127.0.0.1:7860 unless GRADIO_SERVER_NAME and GRADIO_SERVER_PORT say otherwise, the MCP tools "
        "at /gradio_api/mcp/. The settings come from the environment or .env (docs/configuration.md)."
    ),
    "mcp": (
        "Serve the app's six tools (read_file, render_page, describe, transcribe, outline, find) to an agent "
        "that starts its tools as a command (Claude Desktop, Claude Code, Cursor), over standard input and "
        "output, until standard input closes. The settings come from the environment or .env."
    ),
}


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    command = argv[0] if argv else ""
    if command in SERVERS:  # a server keeps Python's own SIGPIPE: a pipe closed under it is an error, not its end
        argparse.ArgumentParser(prog=f"{PROG} {command}", description=SERVERS[command]).parse_args(argv[1:])
        try:
            import gradio  # noqa: F401
        except ImportError:
            print(NEEDS_APP.format(command=command), file=sys.stderr)
            return 2
        return app() if command == "app" else mcp()
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # `readlens FILE | head` ends quietly, as shell tools do
    return read_main(argv[1:] if command == "read" else argv, prog=PROG, commands=COMMANDS)


def app() -> int:
    """Start the app as ``python app.py`` does and serve it until it is stopped."""
    from readers import Services, Settings

    from .layout import build_ui, launch, preload

    settings = Settings.from_env()
    preload()
    launch(build_ui(Services(settings)), settings)
    return 0


def mcp() -> int:
    """Serve the app's MCP tools over stdio until standard input closes."""
    import anyio

    from readers import Services, Settings

    from .layout import build_ui, start

    channel = os.fdopen(os.dup(sys.stdout.fileno()), "wb", buffering=0)  # MCP's messages, and nothing else
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())  # Gradio's and everyone's prints go to standard error
    settings = replace(Settings.from_env(), mcp_server=True)
    demo = build_ui(Services(settings))
    start(demo, settings, server_name="127.0.0.1", quiet=True)
    try:
        anyio.run(_bridge, f"{demo.local_url.rstrip('/')}/gradio_api/mcp/", channel)
    finally:
        demo.close()
    return 0


async def _bridge(url: str, channel) -> None:
    """Answer the MCP requests on standard input with the app's MCP server at ``url``, writing the
    answers to ``channel``."""
    from io import TextIOWrapper

    import anyio
    from mcp import ClientSession
    from mcp.client.streamable_http import streamable_http_client
    from mcp.server.lowlevel import Server
    from mcp.server.stdio import stdio_server

    async with streamable_http_client(url) as (read, write, _), ClientSession(read, write) as app:
        await app.initialize()
        server = Server("readlens")

        @server.list_tools()
        async def tools():
            return (await app.list_tools()).tools

        @server.call_tool(validate_input=False)  # the app's server checks the arguments itself
        async def call(name: str, arguments: dict):
            return await app.call_tool(name, arguments)

        stdout = anyio.wrap_file(TextIOWrapper(channel, encoding="utf-8"))
        async with stdio_server(stdout=stdout) as (requests, answers):
            await server.run(requests, answers, server.create_initialization_options())
