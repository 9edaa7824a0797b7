"""PySpark's Python daemon for local mode, started from the installed
pyspark (the `spark.python.daemon.module` the Spark examples set with a
local master).

Spark puts its own `pyspark.zip` and `py4j-*.zip` first on the Python
workers' path. Python cannot keep compiled bytecode for modules imported
from a zip file, so every start of the daemon compiled pyspark's modules
from source again: about half a second of CPU on the critical path of a
job of seconds. When the zip belongs to the installed pyspark (a pip
install of PySpark keeps it in `pyspark/python/lib/`: the same files),
this module moves the zips to the end of the path, so that the installed
package (with its cached bytecode) is found first; otherwise the path is
left as Spark made it. Then it runs PySpark's daemon as usual.
"""

import importlib.util
import os
import sys


def spark_zip(path):
    name = os.path.basename(path)
    return path.endswith(".zip") and (name.startswith("pyspark") or name.startswith("py4j"))


def installed_first():
    """Move Spark's zips behind the installed pyspark if it is the zip's
    own installation; return whether the path was changed."""
    zips = [p for p in sys.path if spark_zip(p)]
    ours = [p for p in zips if os.path.basename(p) == "pyspark.zip"]
    if not ours:
        return False
    before = list(sys.path)
    sys.path[:] = [p for p in sys.path if not spark_zip(p)] + zips
    spec = importlib.util.find_spec("pyspark")
    home = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(ours[0]))))
    where = spec and spec.origin and os.path.dirname(os.path.abspath(spec.origin))
    if where != home:
        # another pyspark (or none) would be imported: keep Spark's order
        sys.path[:] = before
        importlib.invalidate_caches()
        return False
    return True


if __name__ == "__main__":
    installed_first()
    from pyspark.daemon import manager

    manager()
