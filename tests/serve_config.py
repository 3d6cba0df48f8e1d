"""A `referee serve` config for the tests that start the real command: a folder camera
holding one picture, mock pins, no die module, the journal under tmp_path (shared by
tests/web/test_server.py, tests/web/test_listening.py and tests/controller/test_systemd.py)."""
import cv2
import numpy as np


def write_config(tmp_path, port: int, token: str = "", host: str = "127.0.0.1"):
    frames = tmp_path / "frames"
    frames.mkdir(exist_ok=True)
    cv2.imwrite(str(frames / "0001.png"), np.full((360, 640, 3), 90, np.uint8))
    config = tmp_path / "referee.toml"
    config.write_text(f'[camera]\nsource = "{frames}"\n[gpio]\nfactory = "mock"\n[die_module]\nport = "off"\n'
                      f'[data]\nfolder = "{tmp_path / "data"}"\n[web]\nhost = "{host}"\nport = {port}\n'
                      + (f'admin_token = "{token}"\n' if token else ""))
    return config
