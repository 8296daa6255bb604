#!/usr/bin/env python3
"""A gauntlet-candidate/2 adapter, in Python 3's standard library only, for the passthrough broker.

The passthrough (dist/harness/candidates/passthrough-proxy.js) is a plain proxy with no protection
at all. This adapter declares and configures it exactly as the harness's built-in `passthrough`
candidate does (harness/candidates/passthrough.ts), so the two must get the same verdicts; it is
also the example of an adapter written outside TypeScript (docs/adapter-protocol.md).

The harness writes one JSON request a line on stdin and reads one JSON answer a line on stdout;
anything for a human goes to stderr. The harness, not the adapter, starts the broker from the
command line `start` answers with, so it owns the broker's processes.
"""
import json
import os
import re
import shutil
import sys

PROTOCOL = "gauntlet-candidate/2"
NAME = "passthrough-python"
# The compiled proxy, found from this file's own place in the repository.
PROXY = os.path.join(os.path.dirname(os.path.realpath(__file__)), "..", "..", "dist", "harness", "candidates", "passthrough-proxy.js")
NODE = shutil.which("node") or "node"
REFERENCE = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)")


def expand_references(value, own):
    """${NAME} and $NAME replaced by the broker's own variable (an unset one by nothing): the naive
    reading of a server's env that the credential scenarios catch."""
    return REFERENCE.sub(lambda match: own.get(match.group(1) or match.group(2), ""), value)


def hello(params):
    return {
        "protocol": PROTOCOL,
        "name": NAME,
        "version": "0.1.0",
        "claims": ["listing", "calls"],
        # Every hook, honestly empty, so that every scenario runs against the baseline.
        "hooks": ["approve", "audit", "audit-lines", "load-report"],
        "upstreams": ["command", "url"],
        "agent_transports": ["stdio", "http"],
        # It relays lines, whatever MCP revision they speak.
        "revisions": ["2025-11-25", "2026-07-28"],
        # It reads no operator file, so every flaw is as good as written: it serves regardless.
        "config_flaws": True,
        "unapplied": [],
        # It aggregates several servers as naively as the built-in passthrough does.
        "servers": "many",
    }


def pin(params):
    return {"ok": True, "detail": f"{NAME} pins nothing"}


def aggregated(servers, own):
    """Several servers as the proxy's naive aggregator takes them (harness/candidates/passthrough.ts):
    each reached as given, with its prefix, and one flat rename table for all of them."""
    renames = {tool: rule["rename"] for server in servers for tool, rule in server["operator"]["tools"].items() if "rename" in rule}
    described = []
    for server in servers:
        upstream, operator = server["upstream"], server["operator"]
        entry = {"name": server["name"]}
        if "url" in upstream:
            entry["url"] = upstream["url"]
        else:
            entry.update(command=upstream["command"], args=upstream["args"],
                         env={name: expand_references(value, own) for name, value in operator.get("env", {}).items()})
        if "prefix" in operator:
            entry["prefix"] = operator["prefix"]
        entry["renames"] = renames
        described.append(entry)
    return described


def start(params):
    session = params["session"]
    operator, upstream, own = session["operator"], session["upstream"], session["env"]
    if "servers" in session:
        target = ["--servers", json.dumps(aggregated(session["servers"], own), separators=(",", ":"), ensure_ascii=False)]
        if "credentials" in operator:
            target += ["--tokens", json.dumps(operator["credentials"], separators=(",", ":"), ensure_ascii=False)]
    elif "url" in upstream:
        target = ["--url", upstream["url"]]
        if "credentials" in operator:
            target += ["--tokens", json.dumps(operator["credentials"], separators=(",", ":"), ensure_ascii=False)]
        if "config_token" in operator:
            target += ["--token", operator["config_token"]]
        if "config_token_env" in operator:
            # A naive gateway reads the named variable from its own environment.
            target += ["--token", own.get(operator["config_token_env"], "")]
    else:
        target = ["--", upstream["command"], *upstream["args"]]
    # The server gets the operator's variables on top of everything the proxy has.
    env = {name: expand_references(value, own) for name, value in operator.get("env", {}).items()}
    if "trusted_ca" in session:
        env["NODE_EXTRA_CA_CERTS"] = session["trusted_ca"]
    if "agent_http" in session:
        # Its naive front door on the port the harness reserved: every interface, no checks, and no
        # credential. A broker whose front door requires one would answer with it as well, e.g.
        # "front_door_auth": {"header": "Authorization", "value": "Bearer " + token}.
        port = params["port"]
        return {"transport": "http", "url": f"http://127.0.0.1:{port}/mcp", "command": NODE, "args": [PROXY, "--front-door", str(port), *target], "env": env}
    return {"transport": "stdio", "command": NODE, "args": [PROXY, *target], "env": env}


METHODS = {
    "hello": hello,
    "pin": pin,
    "start": start,
    "approve": lambda params: None,  # passthrough never holds a call
    "audit": lambda params: [],
    "audit_lines": lambda params: [],
    "load_report": lambda params: None,
    "stop": lambda params: None,  # the harness ends the proxy; the adapter started nothing itself
}


def serve(methods):
    """Answers each request line until stdin closes."""
    for line in sys.stdin:
        request = json.loads(line)
        try:
            answer = {"id": request["id"], "result": methods[request["method"]](request["params"])}
        except Exception as error:  # any failure is the harness's to report, named
            answer = {"id": request["id"], "error": {"message": f"{request['method']}: {type(error).__name__}: {error}"}}
        sys.stdout.write(json.dumps(answer, ensure_ascii=False) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    serve(METHODS)
