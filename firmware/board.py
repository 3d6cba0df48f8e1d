"""This die module's wiring and settings. Edit to match the board before flashing;
hardware.md has the pin table. GPIO numbers are the RP2040's (GP0-GP28)."""
BOARD = {
    "input": "button",  # "button" (to ground) or "tilt" (a ball tilt switch, shake to roll)
    "input_pin": 15,
    "display": "leds",  # "leds" (pip groups and an RGB LED) or "oled" (SSD1306 on I2C)
    "pips": ((2, 3, 4, 5), (6, 7, 8, 9)),  # per die: centre, diagonal, other diagonal, middle pair
    "rgb": (10, 11, 12),  # red, green, blue (yellow lights red and green)
    "oled_i2c": (0, 16, 17),  # I2C bus id, SDA, SCL; address 0x3C
    "piezo": 18,  # passive piezo on a PWM pin
    "debounce_ms": 20,
    "roll_ms": 400,  # the rolling animation lasts at least this long
    "watchdog_ms": 2000,  # the hardware watchdog resets the board after this long without a loop
}
