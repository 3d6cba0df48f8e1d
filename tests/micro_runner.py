"""A test runner for MicroPython, which has no pytest: the firmware's test modules call
`run_all(globals())` when run as a script, and pytest collects the same functions."""


def run_all(namespace):
    """Run every test_ function in `namespace`, print one line each; the count of failures."""
    failed = 0
    for name, fn in sorted(namespace.items()):
        if name.startswith("test_") and callable(fn):
            try:
                fn()
                print("ok", name)
            except Exception as exc:  # report and go on
                failed += 1
                print("FAIL", name, repr(exc))
    print("failed", failed)
    return failed
