"""The independent schema validator (tests/validator/validate.js --serve) as a persistent child."""
import json
import os
import subprocess
import threading

VALIDATOR_JS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "validator", "validate.js")


class Validator:
    def __init__(self, script=VALIDATOR_JS):
        self.script = os.path.normpath(script)
        self.lock = threading.Lock()
        self.proc = None

    def _start(self):
        self.proc = subprocess.Popen(["node", self.script, "--serve"], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, text=True, bufsize=1)

    def validate(self, obj):
        """Returns a list of "<json pointer> <message>" problems (empty when valid)."""
        line = json.dumps(obj, separators=(",", ":")) + "\n"
        with self.lock:
            for attempt in range(2):
                if self.proc is None or self.proc.poll() is not None:
                    self._start()
                try:
                    self.proc.stdin.write(line)
                    self.proc.stdin.flush()
                    answer = self.proc.stdout.readline()
                    if answer:
                        return json.loads(answer)["errors"]
                except (OSError, ValueError):
                    pass
                self.proc = None
        raise RuntimeError("the schema validator (%s --serve) does not answer" % self.script)

    def close(self):
        if self.proc and self.proc.poll() is None:
            self.proc.stdin.close()
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
