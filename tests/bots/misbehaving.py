"""reconchess players that misbehave in each way a match must survive (used by tests/test_match.py)."""

import os
import time

from reconchess import Player


class _Base(Player):
    def handle_game_start(self, color, board, opponent_name):
        self.color = color

    def handle_opponent_move_result(self, captured_my_piece, capture_square):
        pass

    def choose_sense(self, sense_actions, move_actions, seconds_left):
        return sense_actions[0]

    def handle_sense_result(self, sense_result):
        pass

    def choose_move(self, move_actions, seconds_left):
        return None

    def handle_move_result(self, requested_move, taken_move, captured_opponent_piece, capture_square):
        pass

    def handle_game_end(self, winner_color, win_reason, game_history):
        pass


class RaisingBot(_Base):
    def choose_move(self, move_actions, seconds_left):
        raise RuntimeError("deliberate failure in choose_move")


class IllegalMoveBot(_Base):
    def choose_move(self, move_actions, seconds_left):
        import chess
        return chess.Move.from_uci("a1a8") if self.color else chess.Move.from_uci("a8a1")


class NotAMoveBot(_Base):
    def choose_move(self, move_actions, seconds_left):
        return "e2e4"


class SlowBot(_Base):
    def choose_move(self, move_actions, seconds_left):
        time.sleep(seconds_left + 1.0)
        return None


class SpinningBot(_Base):
    def choose_sense(self, sense_actions, move_actions, seconds_left):
        while True:
            pass


class ExitingBot(_Base):
    def choose_move(self, move_actions, seconds_left):
        os._exit(3)


class PassingBot(_Base):
    pass


def get_player():
    return PassingBot
