"""`referee selftest` on a rig made of real parts: a folder of pictures as the camera,
gpiozero's MockFactory as the pins, the firmware simulator as the die module."""
import cv2
import numpy as np

from controller.cli import main


def write_config(tmp_path, camera, port="sim", factory="mock", extra=""):
    path = tmp_path / "referee.toml"
    path.write_text(f'[camera]\nsource = "{camera}"\n[gpio]\nfactory = "{factory}"\n{extra}'
                    f'[die_module]\nport = "{port}"\nheartbeat_s = 0.2\n')
    return path


def pictures(tmp_path, level):
    folder = tmp_path / "frames"
    folder.mkdir()
    cv2.imwrite(str(folder / "0001.png"), np.full((72, 128, 3), level, np.uint8))
    return folder


def test_a_working_rig_passes(tmp_path, capsys, mock_pins):
    cfg = write_config(tmp_path, pictures(tmp_path, 120), extra='die = "both"\n')
    assert main(["selftest", "--config", str(cfg)]) == 0
    out = capsys.readouterr().out
    assert "gives 128x72 pictures" in out and "GPIO die (both)" in out
    assert "die module: firmware 1.0 answers" in out and "all checks passed" in out


def test_faults_are_named_in_plain_words_and_exit_non_zero(tmp_path, capsys, mock_pins):
    cfg = write_config(tmp_path, tmp_path / "nothing.mp4", port=str(tmp_path / "ttyACM7"))
    assert main(["selftest", "--config", str(cfg)]) == 1
    out = capsys.readouterr().out
    assert "FAULT camera:" in out and "nothing.mp4" in out
    assert f"FAULT die module: {tmp_path / 'ttyACM7'} does not exist" in out
    assert "2 checks failed" in out


def test_a_black_picture_is_reported(tmp_path, capsys, mock_pins):
    cfg = write_config(tmp_path, pictures(tmp_path, 0), port="off")
    assert main(["selftest", "--config", str(cfg)]) == 1
    assert "black picture" in capsys.readouterr().out


def test_a_missing_config_is_a_usage_error(tmp_path, capsys):
    assert main(["selftest", "--config", str(tmp_path / "none.toml")]) == 2
    assert "no such config file" in capsys.readouterr().err
