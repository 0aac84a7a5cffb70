"""What a seat sees, as a fixed vector of numbers: the observation encoders.

- :mod:`cardtable.encoders.layout`: named fields, their lengths and ranges;
- :mod:`cardtable.encoders.skyjo_obs`, :mod:`cardtable.encoders.skipbo_obs`: each game's
  encoder (``encode(state.view(seat))``, ``encode_state(state, seat)``) and layout.

They sit below the bots and the RL environments: the environments hand the vectors to a
learner, and the ``learned`` bots (:mod:`cardtable.bots.learned`) encode the seat they
play the same way. Nothing here imports numpy at module level. See docs/rl.md.
"""
