"""What pindrop runs on inside QGIS: the native libpindrop.so where it loads (Linux x86_64 with
glibc 2.34 or later), else pindrop.wasm through wasmtime (Windows, macOS, Linux aarch64, older
Linux): the pindrop package chooses (bindings/python/pindrop/_backend.py).

QGIS's Python has no wasmtime, and the plugin zip carries no native binary for it (one zip for
every system, as the official plugin repository wants). Where the native library does not load,
the plugin asks the user once whether to install wasmtime from PyPI (one wheel of about 10 MB for
the system, the same for every Python version) and installs it with QGIS's own pip into a folder of
the QGIS profile, `<profile>/python/pindrop_wasmtime`: no administrator rights, nothing written
into the QGIS installation, removed with the profile. That folder goes on sys.path when the plugin
loads. $PINDROP_QGIS_WASMTIME names another folder; $PINDROP_QGIS_INSTALL=yes gives the consent in
advance (an administrator's deployment, the tests).
"""
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Optional, Tuple

PACKAGE = "wasmtime"
FOLDER_NAME = "pindrop_wasmtime"


def folder() -> Path:
    """The folder wasmtime is installed into: $PINDROP_QGIS_WASMTIME, else in the QGIS profile."""
    env = os.environ.get("PINDROP_QGIS_WASMTIME")
    if env:
        return Path(env)
    try:
        from qgis.core import QgsApplication
        profile = QgsApplication.qgisSettingsDirPath()
    except Exception:  # outside QGIS
        profile = ""
    if not profile:
        return Path.home() / ".pindrop" / FOLDER_NAME
    return Path(profile) / "python" / FOLDER_NAME


def activate() -> None:
    """Puts the installed wasmtime on sys.path (after what QGIS's Python has itself)."""
    where = str(folder())
    if os.path.isdir(where) and where not in sys.path:
        sys.path.append(where)


def has_wasmtime() -> bool:
    try:
        import wasmtime  # noqa: F401
        return True
    except ImportError:
        return False


def consent_given() -> bool:
    return os.environ.get("PINDROP_QGIS_INSTALL", "").strip().lower() in ("1", "yes", "true")


def python_executable() -> Optional[str]:
    """QGIS's Python interpreter (sys.executable is QGIS itself on Windows and macOS)."""
    exe = Path(sys.executable)
    if exe.name.lower().startswith("python"):
        return str(exe)
    version = f"{sys.version_info[0]}.{sys.version_info[1]}"
    for prefix in dict.fromkeys((Path(sys.exec_prefix), Path(sys.base_exec_prefix))):
        for candidate in (prefix / "python.exe", prefix / "python3.exe",               # Windows (OSGeo4W)
                          prefix / "bin" / f"python{version}", prefix / "bin" / "python3"):  # macOS, Linux
            if candidate.is_file():
                return str(candidate)
    return shutil.which(f"python{version}") or shutil.which("python3")


def install() -> Tuple[bool, str]:
    """Installs wasmtime from PyPI into `folder()` with QGIS's pip: (done, what happened)."""
    target = folder()
    python = python_executable()
    if python is None:
        return False, "QGIS's Python interpreter was not found, so pip cannot run"
    target.mkdir(parents=True, exist_ok=True)
    command = [python, "-m", "pip", "install", "--disable-pip-version-check", "--no-input", "--upgrade",
               "--target", str(target), PACKAGE]
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONHOME",)}
    kwargs = {}
    if os.name == "nt":  # no console window flashing up
        kwargs["creationflags"] = getattr(subprocess, "CREATE_NO_WINDOW", 0)
    try:
        run = subprocess.run(command, capture_output=True, text=True, timeout=900, env=env, **kwargs)
    except (OSError, subprocess.TimeoutExpired) as e:
        return False, f"pip could not run: {e}"
    if run.returncode != 0:
        return False, (run.stderr or run.stdout).strip()[-1500:] or f"pip failed (exit {run.returncode})"
    activate()
    import importlib
    importlib.invalidate_caches()
    if not has_wasmtime():
        return False, f"wasmtime was installed into {target} but cannot be imported"
    return True, f"wasmtime installed into {target}"


def load_pindrop() -> Optional[Exception]:
    """Imports pindrop; where neither backend loads only for want of wasmtime and the consent was
    given in advance, installs wasmtime first. Returns the error that remains, or None."""
    activate()
    try:
        import pindrop  # noqa: F401
        return None
    except OSError as e:
        error: Exception = e
    if not has_wasmtime() and consent_given():
        done, message = install()
        if not done:
            return OSError(message)
        try:
            import pindrop  # noqa: F401,F811
            return None
        except OSError as e:
            error = e
    return error


class MissingRuntime:
    """The plugin as QGIS loads it where pindrop cannot run yet: a message bar entry that says why
    and offers to install wasmtime (asking first); once installed, the plugin reloads itself."""

    def __init__(self, iface, error: Exception):
        self.iface = iface
        self.error = error
        self.item = None

    def initGui(self):  # noqa: N802 (QGIS's name)
        from qgis.PyQt.QtWidgets import QPushButton
        bar = self.iface.messageBar()
        self.item = bar.createMessage("pindrop drag", "runs on this computer through WebAssembly, "
                                      "which needs the wasmtime package (about 10 MB, from PyPI).")
        button = QPushButton("Install wasmtime…")
        button.clicked.connect(self.ask)
        self.item.layout().addWidget(button)
        bar.pushWidget(self.item)

    def ask(self):
        from qgis.PyQt.QtWidgets import QMessageBox
        answer = QMessageBox.question(
            self.iface.mainWindow(), "pindrop drag",
            f"pindrop's native library does not load here ({self.error}).\n\n"
            "It can run through WebAssembly instead, with the wasmtime package from PyPI "
            "(https://pypi.org/project/wasmtime, about 10 MB). Install it with pip into\n"
            f"{folder()}\n(your QGIS profile; nothing else changes)?")
        if answer != QMessageBox.Yes:
            return
        done, message = install()
        if not done:
            QMessageBox.warning(self.iface.mainWindow(), "pindrop drag", f"wasmtime was not installed:\n{message}")
            return
        import qgis.utils
        self.unload()
        qgis.utils.reloadPlugin("pindrop_drag")

    def unload(self):
        if self.item is not None:
            try:
                self.iface.messageBar().popWidget(self.item)
            except RuntimeError:
                pass
            self.item = None
