"""The client installs the way its README says: offline, from the source folder, with pip."""

import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

CLIENT_DIR = Path(__file__).resolve().parent.parent


def test_pip_installs_the_folder_offline_and_the_installed_copy_imports(tmp_path: Path) -> None:
    # A copy, so the build leaves nothing in the clone (CI checks the tree is clean).
    source = tmp_path / "source"
    shutil.copytree(CLIENT_DIR, source, ignore=shutil.ignore_patterns("tests", "__pycache__", "build", "*.egg-info"))
    site = tmp_path / "site"
    install = subprocess.run(
        [sys.executable, "-m", "pip", "install", "--no-build-isolation", "--no-deps", "--no-index",
         "--target", str(site), str(source)],
        capture_output=True, text=True, timeout=120, check=False,
    )
    assert install.returncode == 0, install.stdout + install.stderr
    probe = subprocess.run(
        [sys.executable, "-c", "import agent_chat_client as c; print(c.__version__); print(c.__file__)"],
        capture_output=True, text=True, timeout=60, check=False, cwd=tmp_path,
        env={"PYTHONPATH": str(site), "PYTHONDONTWRITEBYTECODE": "1"},
    )
    assert probe.returncode == 0, probe.stderr
    version, location = probe.stdout.split()
    declared = tomllib.loads((CLIENT_DIR / "pyproject.toml").read_text())["project"]["version"]
    assert version == declared
    assert Path(location).is_relative_to(site)
