"""Split-Brain Chess: the game played on the Los Alamos 6x6 board (its move generator lives in ``losalamos``)."""
