"""Makes the wheel a platform wheel that carries this system's mobilemcp binary as its script.

The binary is bin/mobilemcp (bin/mobilemcp.exe for Windows); the wheel's tag is py3-none-PLATFORM
with PLATFORM from MOBILEMCP_WHEEL_PLATFORM, since the binary runs on one system and needs no
particular Python.
"""

import os

from hatchling.builders.hooks.plugin.interface import BuildHookInterface


class PlatformWheel(BuildHookInterface):
    def initialize(self, version, build_data):
        platform = os.environ.get("MOBILEMCP_WHEEL_PLATFORM")
        if not platform:
            raise RuntimeError("MOBILEMCP_WHEEL_PLATFORM is not set: give the wheel's platform tag, such as win_amd64")
        exe = "mobilemcp.exe" if platform.startswith("win") else "mobilemcp"
        build_data["pure_python"] = False
        build_data["tag"] = f"py3-none-{platform}"
        build_data["shared_scripts"][f"bin/{exe}"] = exe
