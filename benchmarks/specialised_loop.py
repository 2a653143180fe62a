"""A hand-written CPython loop for one ruleset: the yardstick of the engine's speed.

Random bots play whole hands of winning-moves at 4 players (two partnerships, 1000 miles,
no extension) with the rules written straight into the loop: no ``Action`` objects, no
``_verify_*`` checks, no observers, no memo, no records. It is what a programmer would
write for this one edition. ``bench_engine.py --specialised`` divides the engine's
hands per CPU-second by this loop's: the "specialised-loop ratio" of issue 35's Speed
section. The two loops do not play the same games (this one keeps no history and draws
its random numbers in its own order); it plays the same rules (the coup fourré called
half the time, a simplification of the random bot's choice), and the benchmark prints
the turns per hand of both so the two workloads can be compared.
"""

from __future__ import annotations

import random

from mbrules.vocab import BATTLE, DISTANCE, HAZARD, NO_LIMIT, REMEDY


def play_hands(game, hands: int, seed: int) -> tuple[int, int]:
    """Play ``hands`` hands of ``game`` (a winning-moves Game) with random bots: (hands, turns)."""
    rng = random.Random(seed)
    rnd = rng.random
    kind, miles, pile, limit = game.kind, game.miles, game.pile, game.limit
    fixes, is_go, prot_mask, rolling_safety = game.fixes_mask, game.is_go, game.protects_mask, game.grants_rolling
    most, bit, protectors = game.max_per_hand, game.bit, game.protectors
    N, S, target, hand_size = game.players, game.sides, game.target, game.hand_size
    side_of = game.side_of
    deck0 = list(game.deck)
    turns = 0
    for _ in range(hands):
        deck = deck0[:]
        rng.shuffle(deck)
        held = [[deck.pop() for _ in range(hand_size)] for _ in range(N)]
        battle = [[] for _ in range(S)]
        speed = [[] for _ in range(S)]
        prot = [0] * S
        row = [False] * S
        km = [0] * S
        played = [[0] * game.n_cards for _ in range(S)]
        p = 0
        while True:
            hand = held[p]
            if deck:
                hand.append(deck.pop())
            elif not any(held):
                break
            elif not hand:
                p = (p + 1) % N
                continue
            ps = side_of[p]
            b = battle[ps]
            top = b[-1] if b else -1
            hz = top >= 0 and kind[top] == HAZARD and not prot[ps] & bit[top]
            rolling = not hz and ((top >= 0 and is_go[top]) or row[ps])
            sp = speed[ps]
            st = sp[-1] if sp else -1
            lim = limit[st] if st >= 0 and not prot[ps] & bit[st] else NO_LIMIT
            moves = []  # (card, side)
            for c in set(hand):
                k = kind[c]
                if k == DISTANCE:
                    if rolling and miles[c] <= lim and played[ps][c] < most[c] and km[ps] + miles[c] <= target:
                        moves.append((c, ps))
                elif k == HAZARD:
                    for ts in range(S):
                        if ts == ps or prot[ts] & bit[c]:
                            continue
                        if pile[c] == BATTLE:
                            t = battle[ts][-1] if battle[ts] else -1
                            thz = t >= 0 and kind[t] == HAZARD and not prot[ts] & bit[t]
                            if not thz and ((t >= 0 and is_go[t]) or row[ts]):
                                moves.append((c, ts))
                        else:
                            t = speed[ts][-1] if speed[ts] else -1
                            if not (t >= 0 and kind[t] == HAZARD and not prot[ts] & bit[t]):
                                moves.append((c, ts))
                elif k == REMEDY:
                    if pile[c] == BATTLE:
                        if hz:
                            if fixes[c] & bit[top]:
                                moves.append((c, ps))
                        elif is_go[c] and not (top >= 0 and is_go[top]):
                            moves.append((c, ps))
                    elif st >= 0 and kind[st] == HAZARD and not prot[ps] & bit[st] and fixes[c] & bit[st]:
                        moves.append((c, ps))
                else:
                    moves.append((c, ps))
            n_play = len(moves)
            distinct = list(dict.fromkeys(hand))
            i = int(rnd() * (n_play + len(distinct)))
            turns += 1
            if i >= n_play:  # a discard
                hand.remove(distinct[i - n_play])
                p = (p + 1) % N
                continue
            c, ts = moves[i]
            hand.remove(c)
            k = kind[c]
            if k == DISTANCE:
                km[ps] += miles[c]
                played[ps][c] += 1
                if km[ps] == target:
                    break
            elif k == REMEDY:
                (battle if pile[c] == BATTLE else speed)[ps].append(c)
            elif k == HAZARD:
                (battle if pile[c] == BATTLE else speed)[ts].append(c)
                caller = -1  # a coup fourré: the first holder from the attacker's left, half the time
                for j in range(1, N):
                    q = (p + j) % N
                    if side_of[q] == ts and any(sc in held[q] for sc in protectors[c]) and rnd() < 0.5:
                        caller = q
                        break
                if caller >= 0:
                    sc = next(sc for sc in protectors[c] if sc in held[caller])
                    held[caller].remove(sc)
                    prot[ts] |= prot_mask[sc]
                    row[ts] = row[ts] or rolling_safety[sc]
                    (battle if pile[c] == BATTLE else speed)[ts].pop()  # the hazard goes (WM §7)
                    if deck:
                        held[caller].append(deck.pop())
                    p = caller
                    continue
            else:  # a safety: protection, the hazards it covers leave, another turn
                prot[ps] |= prot_mask[c]
                row[ps] = row[ps] or rolling_safety[c]
                while b and kind[b[-1]] == HAZARD and prot[ps] & bit[b[-1]]:
                    b.pop()
                while sp and kind[sp[-1]] == HAZARD and prot[ps] & bit[sp[-1]]:
                    sp.pop()
                continue
            p = (p + 1) % N
    return hands, turns
