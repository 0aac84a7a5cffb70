"""Benchmark clients that drive a running front end from outside (``cardtable loadtest``).

They talk to a server only over HTTP and WebSocket, as a real client would, so they
import nothing of the server package.
"""
