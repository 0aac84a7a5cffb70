"""Compiled batch engines (extra ``fast``: numba, numpy).

- :mod:`cardtable.fast.skyjo_batch`: :class:`SkyjoBatch`, B Skyjo games in numpy arrays
  stepped together by compiled kernels (:mod:`cardtable.fast.skyjo_kernels`), dealt
  by the same seeded SplitMix64 as the reference engine (:mod:`cardtable.fast.rng`);
- :mod:`cardtable.fast.skipbo_batch`: :class:`SkipBoBatch`, the same for Skip-Bo
  (kernels in :mod:`cardtable.fast.skipbo_kernels`);
- :mod:`cardtable.fast.bench`: random-play throughput of a batch engine.

The pure-Python engines stay the reference and the default; nothing outside this
package imports it unless asked for ``--engine fast``. See docs/performance.md.
"""
