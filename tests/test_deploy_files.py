"""The sample deployment files of deploy/ parse, agree with each other and with the
server: the settings they set exist, the ports line up, the proxies' body limits are
the app's, and docs/deploy.md lists every setting and names every file."""

from __future__ import annotations

import configparser
import os
import re
from collections.abc import Iterator, MutableMapping
from pathlib import Path
from typing import Any

import pytest
import yaml

from mathable.web.api import Settings
from mathable.web.infra.limits import Limits

ROOT = Path(__file__).resolve().parent.parent
DEPLOY = ROOT / "deploy"
GUIDE = ROOT / "docs" / "deploy.md"

OUTSIDE_SETTINGS = {"FORWARDED_ALLOW_IPS"}
"""Read by uvicorn, not by the app: whose X-Forwarded-For to trust."""


class Recording(MutableMapping[str, str]):
    """An environment that notes every name asked of it (``get`` and ``in`` too: the
    mapping mixins go through ``__getitem__``)."""

    def __init__(self, base: dict[str, str]) -> None:
        self.data = dict(base)
        self.asked: set[str] = set()

    def __getitem__(self, key: str) -> str:
        self.asked.add(key)
        return self.data[key]

    def __setitem__(self, key: str, value: str) -> None:
        self.data[key] = value

    def __delitem__(self, key: str) -> None:
        del self.data[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self.data)

    def __len__(self) -> int:
        return len(self.data)


class Unit(configparser.ConfigParser):
    """A systemd unit: keys keep their case, a key may repeat, no interpolation."""

    def __init__(self) -> None:
        super().__init__(strict=False, interpolation=None)

    def optionxform(self, optionstr: str) -> str:
        return optionstr


@pytest.fixture
def setting_names(monkeypatch: pytest.MonkeyPatch) -> set[str]:
    """Every environment variable the server's Settings read (with nothing set)."""
    clean = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    clean = {k: v for k, v in clean.items() if not k.startswith(("MATHABLE_", "REDIS_"))}
    recording = Recording(clean)
    monkeypatch.setattr(os, "environ", recording)
    Settings()
    names = {n for n in recording.asked if n.startswith("MATHABLE_") or n.endswith("_URL")}
    assert "DATABASE_URL" in names and len(names) > 5
    return names


def compose() -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load((DEPLOY / "compose.yaml").read_text())
    return data


def app_services(data: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The compose services that run the mathable server."""
    return {
        name: service
        for name, service in data["services"].items()
        if "mathable" in " ".join(service.get("command", []))
    }


def unit(name: str) -> Unit:
    """A systemd unit file of deploy/systemd, parsed."""
    parser = Unit()
    parser.read_string((DEPLOY / "systemd" / name).read_text())
    return parser


def env_file(path: Path) -> dict[str, str]:
    pairs = {}
    for line in path.read_text().splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            name, _, value = line.partition("=")
            pairs[name.strip()] = value.strip()
    return pairs


def nginx() -> str:
    text = (DEPLOY / "nginx" / "mathable.conf").read_text()
    without_comments = re.sub(r"#[^\n]*", "", text)
    assert without_comments.count("{") == without_comments.count("}")
    return without_comments


def size(text: str) -> int:
    """A size as nginx (256k, 1m) or Caddy (256KiB, 1MiB) writes it, in bytes."""
    found = re.fullmatch(r"(\d+)\s*([kKmM]?)(i?[bB])?", text.strip())
    assert found, text
    number, unit_ = int(found[1]), found[2].lower()
    return number * {"": 1, "k": 1024, "m": 1024 * 1024}[unit_]


def test_compose_app_services_set_only_real_settings(setting_names: set[str]) -> None:
    data = compose()
    apps = app_services(data)
    assert len(apps) >= 2  # several processes over one database
    for name, service in apps.items():
        environment = service["environment"]
        unknown = set(environment) - setting_names - OUTSIDE_SETTINGS
        assert not unknown, f"{name} sets {unknown}, which the server never reads"
        url = environment["DATABASE_URL"]
        assert url.startswith("postgresql://")
        database = data["services"]["postgres"]["environment"]
        host_and_db = re.search(r"@([^:/]+):(\d+)/(\w+)$", url)
        assert host_and_db, url
        assert host_and_db[1] == "postgres" and host_and_db[2] == "5432"
        assert host_and_db[3] == database["POSTGRES_DB"]
        assert url.startswith(f"postgresql://{database['POSTGRES_USER']}:")
        assert service["depends_on"]["postgres"]["condition"] == "service_healthy"


def test_compose_ports_line_up_with_the_caddyfile() -> None:
    data = compose()
    apps = app_services(data)
    targets = set()
    for name, service in apps.items():
        command = service["command"]
        port = command[command.index("--port") + 1]
        assert command[command.index("--host") + 1] == "0.0.0.0"
        assert [str(p) for p in service["expose"]] == [port]
        targets.add(f"{name}:{port}")
    caddyfile = (DEPLOY / "Caddyfile").read_text()
    proxied = re.search(r"^\s*reverse_proxy\s+([^{\n]+)", caddyfile, re.MULTILINE)
    assert proxied and set(proxied[1].split()) == targets
    caddy = data["services"]["caddy"]
    assert {"80:80", "443:443"} <= set(caddy["ports"])
    assert "./Caddyfile:/etc/caddy/Caddyfile:ro" in caddy["volumes"]
    for service in apps.values():
        build = service["build"]
        assert (DEPLOY / build["context"] / build["dockerfile"]).is_file()


def test_systemd_units_and_nginx_ports_line_up(setting_names: set[str]) -> None:
    service = unit("mathable@.service")
    start = service["Service"]["ExecStart"]
    assert re.search(r"/mathable serve --host 127\.0\.0\.1 --port %i$", start)
    assert service["Install"]["WantedBy"] == "mathable.target"
    environment_file = Path(service["Service"]["EnvironmentFile"]).name
    settings = env_file(DEPLOY / "systemd" / environment_file)
    assert "DATABASE_URL" in settings
    assert not set(settings) - setting_names - OUTSIDE_SETTINGS
    ports = set()
    for wanted in unit("mathable.target")["Unit"]["Wants"].split():
        instance = re.fullmatch(r"mathable@(\d+)\.service", wanted)
        assert instance, wanted
        ports.add(int(instance[1]))
    conf = nginx()
    upstream = re.search(r"upstream\s+mathable\s*{([^}]*)}", conf)
    assert upstream
    servers = re.findall(r"server\s+127\.0\.0\.1:(\d+)", upstream[1])
    assert {int(p) for p in servers} == ports and len(ports) >= 2
    timer = unit("mathable-backup.timer")
    assert timer["Timer"]["OnCalendar"]
    assert "pg_dump" in unit("mathable-backup.service")["Service"]["ExecStart"]


def test_nginx_passes_websockets_and_the_forwarded_address() -> None:
    conf = nginx()
    assert re.search(r"map\s+\$http_upgrade\s+\$connection_upgrade", conf)
    assert re.search(r"proxy_set_header\s+Upgrade\s+\$http_upgrade;", conf)
    assert re.search(r"proxy_set_header\s+Connection\s+\$connection_upgrade;", conf)
    assert re.search(r"proxy_http_version\s+1\.1;", conf)
    assert re.search(r"proxy_set_header\s+X-Forwarded-For\s+\$proxy_add_x_forwarded_for;", conf)
    assert re.search(r"listen\s+443\s+ssl", conf) and "ssl_certificate_key" in conf


def test_proxy_body_limits_are_the_apps() -> None:
    """The proxies refuse what the app refuses, no more: 256 KB bodies, 1 MB records."""
    limits = Limits()
    conf = nginx()
    general = re.search(
        r"server_name[^;]*;(?:(?!location).)*client_max_body_size\s+(\w+);", conf, re.S
    )
    records = re.search(r"location\s*=\s*/api/records\s*{[^}]*client_max_body_size\s+(\w+);", conf)
    assert general and records
    assert size(general[1]) == limits.max_body
    assert size(records[1]) == limits.max_record_body
    caddyfile = (DEPLOY / "Caddyfile").read_text()
    caddy = dict(re.findall(r"request_body\s+@(\w+)\s*{\s*max_size\s+(\w+)", caddyfile))
    assert size(caddy["records"]) == limits.max_record_body
    assert size(caddy["others"]) == limits.max_body
    assert re.search(r"@records\s+path\s+/api/records\b", caddyfile)
    assert re.search(r"@others\s+not\s+path\s+/api/records\b", caddyfile)


def test_the_guide_lists_every_setting_and_names_every_file(setting_names: set[str]) -> None:
    guide = GUIDE.read_text()
    missing = {name for name in setting_names if f"`{name}`" not in guide}
    assert not missing, f"docs/deploy.md does not document {sorted(missing)}"
    for path in DEPLOY.rglob("*"):
        if path.is_file() and not path.name.startswith("."):  # not a local deploy/.env
            assert str(path.relative_to(ROOT)) in guide, f"docs/deploy.md never names {path}"


# -- the image's build (issue 31, item 12) ------------------------------------------------------


def dockerfile_stages() -> list[list[tuple[str, str]]]:
    """deploy/Dockerfile as its stages, each a list of (instruction, arguments), with
    continued lines joined and comments dropped."""
    text = re.sub(r"\\\n", " ", (DEPLOY / "Dockerfile").read_text())
    stages: list[list[tuple[str, str]]] = []
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        word, _, rest = line.partition(" ")
        if word.upper() == "FROM":
            stages.append([])
        stages[-1].append((word.upper(), rest.strip()))
    return stages


def context_files() -> set[str]:
    """The repository's files that deploy/Dockerfile.dockerignore lets into the build
    context (its patterns in order, the last match deciding, as Docker reads them)."""
    from fnmatch import fnmatch

    rules = []
    for line in (DEPLOY / "Dockerfile.dockerignore").read_text().splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            rules.append((line.startswith("!"), line.lstrip("!").rstrip("/")))
    kept = set()
    for path in ROOT.rglob("*"):
        relative = path.relative_to(ROOT).as_posix()
        if not path.is_file() or relative.startswith((".git/", ".venv/")):
            continue
        included = True
        for keep, pattern in rules:
            parts = relative.split("/")
            prefixes = ["/".join(parts[: i + 1]) for i in range(len(parts))]
            if any(fnmatch(p, pattern) for p in prefixes) or fnmatch(relative, pattern):
                included = keep
        if included:
            kept.add(relative)
    return kept


def test_the_image_builds_the_compiled_modules_from_all_pip_needs() -> None:
    """The build stage copies what ``pip install .`` reads (the metadata, the readme and
    licence it names, setup.py, which compiles, and the list of modules it compiles), the
    .dockerignore lets each through, a C compiler is installed before the build, and the
    build fails when the wheel holds no compiled module (it once ran uncompiled, silently)."""
    needed = {"pyproject.toml", "setup.py", "README.md", "LICENSE", "src/mathable/compiled.py"}
    needed |= {f"src/{name.replace('.', '/')}.py" for name in _compiled_modules()}
    context = context_files()
    assert needed <= context, f"not in the build context: {sorted(needed - context)}"
    assert not any(name.endswith(".so") for name in context), "a local build in the context"
    build = dockerfile_stages()[0]
    copied: set[str] = set()
    for instruction, arguments in build:
        if instruction == "COPY" and "--from" not in arguments:
            *sources, _ = arguments.split()
            for source in sources:
                copied |= {
                    name
                    for name in context
                    if name == source or name.startswith(source.rstrip("/") + "/")
                }
    assert needed <= copied, f"the build stage never copies {sorted(needed - copied)}"
    steps = [arguments for instruction, arguments in build if instruction == "RUN"]
    compiler = next((i for i, run in enumerate(steps) if re.search(r"\bgcc\b", run)), None)
    pip = next(
        (i for i, run in enumerate(steps) if re.search(r"\bpip (wheel|install)\b", run)), None
    )
    assert compiler is not None and pip is not None and compiler < pip, steps
    assert ".so" in steps[pip] and "sys.exit" in steps[pip], "a pure-Python build must fail"


def _compiled_modules() -> tuple[str, ...]:
    from mathable.compiled import COMPILED_MODULES

    return COMPILED_MODULES


def test_setup_says_so_when_it_falls_back_to_pure_python() -> None:
    """setup.py prints one line naming the reason when it does not compile (its build
    hook run alone: setuptools' own setup() is not the subject here)."""
    import subprocess
    import sys

    hook = (
        "import runpy, setuptools; setuptools.setup = lambda **_: None; runpy.run_path('setup.py')"
    )
    done = subprocess.run(
        [sys.executable, "-c", hook],
        cwd=ROOT,
        env={**os.environ, "MATHABLE_PURE": "1"},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    lines = [line for line in done.stderr.splitlines() if line.startswith("mathable:")]
    assert lines == [
        "mathable: MATHABLE_PURE is set: not compiling; the pure-Python modules are used"
    ]
