# cython: language_level=3
"""Shared C declarations of the Dominoes / Réussite search (see _dominoes.pyx)."""

from libc.stdint cimport int8_t, uint8_t, uint16_t, uint64_t


cdef struct DTTEntry:
    uint64_t key              # table (52 bits, packed) | mover << 52 | seat << 54 | (start + 1) << 56
                              # (the start only while a suit is not started)
    uint16_t gen              # generation the entry was written in (others are empty)
    int8_t lower              # lower bound of the value (index of a distinct place value)
    int8_t upper              # upper bound of the value
    uint8_t best              # best (or cut-off) card, internal numbering; 255: none
    uint8_t work              # log2 of the nodes searched below (replacement priority)
    uint16_t pad              # unused (keeps the entry 16 bytes)


cdef struct DStats:
    uint64_t nodes            # search calls
    uint64_t tt_hits          # transposition-table cut-offs
    uint64_t bound_cuts       # cut-offs by the race bounds (sure / impossible places)
    uint64_t cut_first        # nodes cut off by their first move
    uint64_t cut_later        # nodes cut off by a later move
    uint64_t single           # nodes with one move


cdef struct DSearch:
    uint64_t hands[4]         # cards each seat holds now (internal lanes: bit 0 = lowest of the run order)
    uint64_t table            # cards on the table
    int seat                  # the seat X whose place is solved (the maximiser)
    int nout                  # seats with no cards (already out or gone out)
    int start                 # lane position of the starting rank
    int ace                   # lane position of the Aces (0 with low Aces, else 12)
    int replays               # ace replays: an Ace played gives another play at once
    int8_t own[64]            # the seat holding each card off the table (-1: none), fixed
    int8_t val[4]             # value index of finishing place 1..4 (index 0..3)
    int8_t rmin[4][4]         # rmin[a][b]: the smallest val[a..b]
    int8_t rmax[4][4]         # rmax[a][b]: the largest val[a..b]
    DTTEntry* tt              # the transposition table (buckets of DTT_WAYS entries)
    int tt_shift              # 64 - log2(number of buckets)
    uint16_t gen              # current generation of the table
    DStats st                 # counters
