"""Reads what the cql3 adapter wrote, with the DataStax Python driver: an independent client.

Usage: readback.py HOST PORT KEYSPACE USERNAME
Prints one JSON object: the schema of the keyspace's tables (from system_schema), the user's
row, the user's userline rows in the order the server returns them, and the bodies of the
tweets those rows name. The Go test that runs this compares it with what it wrote.
"""
import json
import sys
import warnings

warnings.simplefilter("ignore")

from cassandra.cluster import Cluster  # noqa: E402
from cassandra.policies import RoundRobinPolicy  # noqa: E402


def main():
    host, port, keyspace, username = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
    cluster = Cluster([host], port=port, protocol_version=4, load_balancing_policy=RoundRobinPolicy())
    session = cluster.connect()
    try:
        out = {"columns": {}}
        rows = session.execute(
            "SELECT table_name, column_name, kind, type, clustering_order "
            "FROM system_schema.columns WHERE keyspace_name = %s", (keyspace,))
        for r in rows:
            out["columns"].setdefault(r.table_name, {})[r.column_name] = {
                "kind": r.kind, "type": r.type, "clustering_order": r.clustering_order}

        session.set_keyspace(keyspace)
        u = session.execute(
            "SELECT username, id, password, created_at FROM users WHERE username = %s", (username,)).one()
        out["user"] = None if u is None else {
            "username": u.username, "id": str(u.id), "password": u.password.decode("latin-1"),
            "created_at": u.created_at.isoformat()}

        line = list(session.execute(
            "SELECT time, tweet_id FROM userline WHERE username = %s", (username,)))
        out["userline"] = [{"time": str(r.time), "tweet_id": str(r.tweet_id),
                            "micros": (r.time.time - 0x01B21DD213814000) // 10} for r in line]
        out["tweets"] = {}
        for r in line:
            t = session.execute("SELECT username, body FROM tweets WHERE tweet_id = %s", (r.tweet_id,)).one()
            if t is not None:
                out["tweets"][str(r.tweet_id)] = {"username": t.username, "body": t.body}
        timeline = list(session.execute(
            "SELECT tweet_id FROM timeline WHERE username = %s", (username,)))
        out["timeline"] = [str(r.tweet_id) for r in timeline]
        json.dump(out, sys.stdout)
    finally:
        cluster.shutdown()


if __name__ == "__main__":
    main()
