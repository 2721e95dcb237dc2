"""Starts a strongroom server where hvac's harness starts a Vault binary.

This file is strongroom's, not hvac's: it replaces hvac's tests/utils/server_manager.py, the only part of hvac's
integration harness that launches, initialises and unseals `vault server`. Everything else under this directory is
hvac 2.4.0 unmodified (see PROVENANCE.md). The interface is the one hvac's test case class uses: start(), initialize(),
unseal(), stop(), restart_vault_cluster(), and the client and root_token attributes.

The command that serves is taken from STRONGROOM_HVAC_COMMAND (a shell-style word list, `node dist/cli.js server` as
`npm start` runs it); each test class gets a fresh data directory, a free port and the TLS certificate hvac's own
client configuration trusts.
"""
import os
import re
import shlex
import shutil
import signal
import socket
import subprocess
import tempfile
import threading
import time

from tests.utils import create_client, get_config_file_path


def _free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class ServerManager:
    def __init__(self, config_paths, client=None, use_consul=False, patch_config=True):
        # The Vault configuration files name a listener with TLS and in-memory storage; strongroom is configured by its
        # environment instead, to the same effect (see start_vault).
        self.config_paths = config_paths
        self.client = client
        self.root_token = None
        self.keys = []
        self._process = None
        self._data_dir = None
        self._banner = ""
        self._address = None

    def start(self):
        self.start_vault()

    def start_vault(self):
        command = shlex.split(os.environ["STRONGROOM_HVAC_COMMAND"])
        self._data_dir = tempfile.mkdtemp(prefix="strongroom-hvac-")
        port = _free_port()
        env = dict(
            os.environ,
            HOST="127.0.0.1",
            PORT=str(port),
            STRONGROOM_DATA_DIR=self._data_dir,
            STRONGROOM_ROOT_TOKEN="",
            STRONGROOM_TLS_CERT_FILE=get_config_file_path("server-cert.pem"),
            STRONGROOM_TLS_KEY_FILE=get_config_file_path("server-key.pem"),
            STRONGROOM_LOG_LEVEL=os.environ.get("STRONGROOM_LOG_LEVEL", "warn"),
        )
        log = open(os.path.join(self._data_dir, "server.log"), "wb")
        self._process = subprocess.Popen(command, env=env, stdout=log, stderr=subprocess.PIPE)
        self._banner = self._read_banner(self._process)
        found = re.search(r"root token: (\S+)", self._banner)
        if found is None:
            raise RuntimeError("strongroom printed no root token:\n" + self._banner)
        self.root_token = found.group(1)
        self._address = "https://127.0.0.1:%d" % port
        self.client = create_client(url=self._address)
        self.client.token = self.root_token

    @staticmethod
    def _read_banner(process, timeout_s=60):
        """The server's stderr up to the line that tells clients where it listens (the banner ends with VAULT_ADDR)."""
        lines = []
        done = threading.Event()

        def read():
            for raw in process.stderr:
                lines.append(raw.decode(errors="replace"))
                if "VAULT_ADDR" in lines[-1]:
                    done.set()
            done.set()

        threading.Thread(target=read, daemon=True).start()
        if not done.wait(timeout_s) or process.poll() is not None:
            raise RuntimeError("strongroom server did not start:\n" + "".join(lines))
        return "".join(lines)

    def initialize(self):
        # `strongroom server` stores its state ready to serve and prints the root token on its first start: there is
        # nothing to initialise, and no unseal keys.
        self.client.token = self.root_token

    def unseal(self):
        # strongroom is never sealed.
        pass

    def get_active_vault_addresses(self):
        # One server, never a standby: hvac's tests that need a cluster skip themselves.
        return [self._address] if self._address is not None else []

    def restart_vault_cluster(self, perform_init=True):
        self.stop()
        self.start()
        if perform_init:
            self.initialize()

    def stop(self):
        self.client = None
        if self._process is not None and self._process.poll() is None:
            self._process.send_signal(signal.SIGTERM)
            try:
                self._process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self._process.kill()
                self._process.wait()
        self._process = None
        self._address = None
        if self._data_dir is not None:
            shutil.rmtree(self._data_dir, ignore_errors=True)
            self._data_dir = None
