"""PySpark's Python daemon for local mode, started from the installed
pyspark (the `spark.python.daemon.module` the Spark examples set with a
local master).

Spark puts its own `pyspark.zip` and `py4j-*.zip` first on the Python
workers' path. Python cannot keep compiled bytecode for modules imported
from a zip file, so every start of the daemon compiled pyspark's modules
from source again: about half a second of CPU on the critical path of a
job of seconds. In local mode the zip and the installed package are the
same pyspark (the one the driver runs), so this module moves the zips to
the end of the path, where the installed package (with its cached
bytecode) is found first, and then runs PySpark's daemon as usual.
"""

import os
import sys


def spark_zip(path):
    name = os.path.basename(path)
    return path.endswith(".zip") and (name.startswith("pyspark") or name.startswith("py4j"))


if __name__ == "__main__":
    zips = [p for p in sys.path if spark_zip(p)]
    sys.path[:] = [p for p in sys.path if not spark_zip(p)] + zips
    from pyspark.daemon import manager

    manager()
