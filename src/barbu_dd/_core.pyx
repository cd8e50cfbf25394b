# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The double-dummy search core of barbu-dd (private: use :mod:`barbu_dd.solver`).

One generic alpha-beta search serves every trick contract.  A trick is worth
``trick_points[number] + sum(card_points[card])`` to the seats of the maximising
*side* when one of them wins it; the search answers null-window questions
"can the side score at least t from here?" and a driver finds the exact value by
bisection over the achievable values (MTD-style).  Ravage City, whose score is not
additive, is searched with the cards each seat has won in the state.

Speed comes from: a transposition table at trick boundaries keyed by the position
normalised to relative ranks (cards already played are squeezed out, point classes
kept), so transposed and rank-shifted positions share entries; one move for each
group of cards that are equivalent under the contract's scoring; move ordering by
the trick's value to the mover; and cheap bounds (the points still on the table)
that stop the search when nothing of value can change the answer.

Cards are ``16 * suit + rank`` (S H D C, ranks 0..12 for 2..A); a hand is a 64-bit
mask with a 16-bit lane a suit, as in DDS.
"""

from libc.signal cimport SIG_ERR, SIG_IGN, SIGINT, sighandler_t
from libc.signal cimport signal as c_signal
from libc.stdint cimport int32_t, int64_t, uint8_t, uint16_t, uint32_t, uint64_t
from libc.stdlib cimport calloc, free
from libc.string cimport memcmp, memcpy, memset
from posix.time cimport CLOCK_MONOTONIC, clock_gettime, timespec

import multiprocessing
import signal as py_signal
import threading


cdef extern from "<stdlib.h>":
    void* aligned_alloc(size_t alignment, size_t size) nogil


cdef extern from *:
    int __builtin_popcountll(unsigned long long) nogil
    int __builtin_ctzll(unsigned long long) nogil
    int __builtin_clzll(unsigned long long) nogil


# Comparing a bucket's tags with SSE2 (every x86-64 CPU), else one at a time.  An
# entry's tag matches a probe when they agree on every bit but the entry's "free"
# bits (none in an empty entry, whose tag 0 then matches no probe).
cdef extern from *:
    """
    #if defined(__SSE2__) || defined(_M_X64)
    #include <emmintrin.h>
    /* Bit i set: (tags[i] ^ tag) & ~free[i] == 0, for 16 consecutive tags. */
    static inline unsigned bdd_tag_hits16(const uint32_t* tags, const uint32_t* free, uint32_t tag) {
        __m128i t = _mm_set1_epi32((int)tag), z = _mm_setzero_si128();
        __m128i a = _mm_cmpeq_epi32(_mm_andnot_si128(_mm_loadu_si128((const __m128i*)free),
                                    _mm_xor_si128(_mm_loadu_si128((const __m128i*)tags), t)), z);
        __m128i b = _mm_cmpeq_epi32(_mm_andnot_si128(_mm_loadu_si128((const __m128i*)(free + 4)),
                                    _mm_xor_si128(_mm_loadu_si128((const __m128i*)(tags + 4)), t)), z);
        __m128i c = _mm_cmpeq_epi32(_mm_andnot_si128(_mm_loadu_si128((const __m128i*)(free + 8)),
                                    _mm_xor_si128(_mm_loadu_si128((const __m128i*)(tags + 8)), t)), z);
        __m128i d = _mm_cmpeq_epi32(_mm_andnot_si128(_mm_loadu_si128((const __m128i*)(free + 12)),
                                    _mm_xor_si128(_mm_loadu_si128((const __m128i*)(tags + 12)), t)), z);
        return (unsigned)_mm_movemask_epi8(_mm_packs_epi16(_mm_packs_epi32(a, b), _mm_packs_epi32(c, d)));
    }
    #else
    static inline unsigned bdd_tag_hits16(const uint32_t* tags, const uint32_t* free, uint32_t tag) {
        unsigned m = 0;
        int i;
        for (i = 0; i < 16; i++)
            m |= (unsigned)(((tags[i] ^ tag) & ~free[i]) == 0) << i;
        return m;
    }
    #endif
    """
    uint32_t bdd_tag_hits16(const uint32_t* tags, const uint32_t* free, uint32_t tag) nogil


# Two threads on one table (``Core.threads``): each bucket has a sequence number,
# odd while an entry of it is written.  A reader notes it before and checks it after
# reading an entry and takes the entry only if it did not change (a seqlock: readers
# never write, so lookups, most of the table's traffic, share the cache lines); a
# writer takes the bucket by making the number odd.
cdef extern from *:
    """
    static inline uint32_t bdd_load_u32(const uint32_t* p) { return __atomic_load_n(p, __ATOMIC_RELAXED); }
    static inline void bdd_store_u32(uint32_t* p, uint32_t v) { __atomic_store_n(p, v, __ATOMIC_RELAXED); }
    static inline uint32_t bdd_seq_read_begin(const uint32_t* s) { return __atomic_load_n(s, __ATOMIC_ACQUIRE); }
    static inline int bdd_seq_read_ok(const uint32_t* s, uint32_t s1) {
        __atomic_thread_fence(__ATOMIC_ACQUIRE);
        return __atomic_load_n(s, __ATOMIC_RELAXED) == s1;
    }
    static inline void bdd_seq_write_begin(uint32_t* s) {
        uint32_t v;
        for (;;) {
            v = __atomic_load_n(s, __ATOMIC_RELAXED);
            if (!(v & 1u) && __atomic_compare_exchange_n(s, &v, v + 1u, 0, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
                break;
        }
    }
    static inline void bdd_seq_write_end(uint32_t* s) { __atomic_store_n(s, __atomic_load_n(s, __ATOMIC_RELAXED) + 1u, __ATOMIC_RELEASE); }
    """
    uint32_t bdd_load_u32(const uint32_t* p) nogil
    void bdd_store_u32(uint32_t* p, uint32_t v) nogil
    uint32_t bdd_seq_read_begin(const uint32_t* s) nogil
    int bdd_seq_read_ok(const uint32_t* s, uint32_t s1) nogil
    void bdd_seq_write_begin(uint32_t* s) nogil
    void bdd_seq_write_end(uint32_t* s) nogil


cdef enum:
    BIG = 1 << 30         # beyond every score
    ROUNDS_LEFT = 9       # budgeted rounds at the others' leads with this many tricks left or more
    ROUNDS_BUDGET = 1000  # the first round's node budget of each move (then 8 times more a round)
    HELPER_LEFT = 6       # the second thread swaps the others' first two moves with this many tricks left or more
    PAR_AFTER = 100000    # Core.threads == 2: nodes the first thread searches alone
    HINT_LEFT = 4         # the refutation memory serves nodes with this many tricks left or more
    NARROW_PASSES = 2     # narrow_search: passes before the full search, each with the
    NARROW_LEAD1 = 2      # others' leads and other plays limited to their first
    NARROW_PLAY1 = 2      # NARROW_LEADi and NARROW_PLAYi moves in the move order
    NARROW_LEAD2 = 4
    NARROW_PLAY2 = 3
    SUIT_BITS = 0x1FFF
    KH_CARD = 27          # 16 * hearts + king
    TT_WAYS = 128          # entries a bucket
    MAX_MOVES = 16

cdef enum:
    ERR_BAD_POSITION = -1
    ERR_BAD_SIDE = -2

cdef uint32_t SIG_FULL = <uint32_t>0xFFFFFFFF   # a small-card signature that does not fit
cdef uint64_t SUIT_MASK[4]
SUIT_MASK[0] = <uint64_t>0x1FFF
SUIT_MASK[1] = <uint64_t>0x1FFF << 16
SUIT_MASK[2] = <uint64_t>0x1FFF << 32
SUIT_MASK[3] = <uint64_t>0x1FFF << 48

# ABOVE[r]: ranks strictly above r in a 13-bit lane.
cdef uint32_t ABOVE[13]
cdef int _r
for _r in range(13):
    ABOVE[_r] = SUIT_BITS & ~((1 << (_r + 1)) - 1)

# OWN_MASK[n]: the bits of a Codes.own that the top n cards take (2 bits a card);
# OWN_MASK2[n | m << 4]: the same for two suits at once, the second in the high half.
cdef uint32_t OWN_MASK[14]
cdef uint64_t OWN_MASK2[256]
# BOT_OWN[n][j], BOT_CLS[n][j]: the bits of a Codes.own / class planes that the bottom
# j of n cards take (all bits when j > n: such an entry is rejected by its lengths)
cdef uint32_t BOT_OWN[14][14]
cdef uint32_t BOT_CLS[14][14]
for _r in range(14):
    OWN_MASK[_r] = <uint32_t>(((<uint64_t>1) << (2 * _r)) - 1)
for _r in range(256):
    OWN_MASK2[_r] = OWN_MASK[_r & 15] | (<uint64_t>OWN_MASK[_r >> 4] << 32) \
        if (_r & 15) < 14 and (_r >> 4) < 14 else 0
cdef int _n, _j
for _n in range(14):
    for _j in range(14):
        if _j <= _n:
            BOT_OWN[_n][_j] = OWN_MASK[_n] ^ OWN_MASK[_n - _j]
            BOT_CLS[_n][_j] = (((1 << _n) - 1) ^ ((1 << (_n - _j)) - 1)) * ((1 << 13) + 1)
        else:
            BOT_OWN[_n][_j] = <uint32_t>0xFFFFFFFF
            BOT_CLS[_n][_j] = <uint32_t>0xFFFFFFFF


cdef struct Shared:
    # what two threads searching one position share (par_value); the lock guards
    # lo, hi and first_done, and version changes whenever they do
    uint32_t version
    uint32_t lock
    int32_t lo
    int32_t hi
    int first_done


cdef struct Ctx:
    Pos p               # the position being searched (played and restored in place)
    Rules* r            # the contract
    TTEntry* tt         # the transposition table (buckets of TT_WAYS entries)
    uint32_t* tags      # per bucket: a tag for each entry, then its free bits (fast rejection)
    uint64_t tt_mask    # number of buckets - 1
    uint32_t* fill      # per bucket: generation << 8 | entries used (filled in order)
    uint32_t gen        # current generation of the table
    uint64_t* hints     # the refutation memory (see hint_key)
    int hint_shift      # 64 - log2(its entries)
    Stats st            # counters
    int64_t hist[4][64] # history heuristic: cut-offs by seat and card
    uint64_t abort_at   # node count at which a budgeted search gives up (0: never)
    int aborted         # the search gave up: its result means nothing
    int limited         # a caller's limit is set (stop_nodes or deadline)
    int want            # under a limit, the bound to narrow: 0 both, 1 the lower, 2 the upper
    uint64_t stop_nodes # the caller's node limit (0: none)
    double deadline     # the caller's time limit, CLOCK_MONOTONIC seconds (0: none)
    int stopped         # a caller's limit was reached: every search gives up
    uint32_t* seq       # per bucket: the seqlock's number when two threads share the table, else NULL
    Shared* sh          # the probes' shared state when two threads search (else NULL)
    uint32_t version    # sh.version when this thread's probe began (a change abandons it)
    uint64_t node_cap   # par_value: give up after this many nodes (0: never)
    int moot            # the search gave up for the other thread or node_cap (see search)
    int helper          # the second thread: another order for the others' moves
    int narrow_lead     # narrow_search's pass: the minimising side's leads limited to this many (0: all)
    int narrow_play     # ... and its other plays
    int narrow_pass     # the pass (1, 2; 0: none), its entries' mark in the table
    int narrowed        # the pass has left out a move or read a marked entry


# -- Ctrl-C during a search --------------------------------------------------------
# The main thread searches without the GIL, so Python's SIGINT handler would run only
# once the search ends (minutes, on a hard deal).  While it searches, SIGINT sets
# g_interrupt instead, which every node reads: the search gives up as at a caller's
# limit (nothing half-done is stored) and the caller raises KeyboardInterrupt.

cdef volatile int g_interrupt = 0
cdef sighandler_t g_prev_sigint


cdef void on_sigint(int signum) noexcept nogil:
    global g_interrupt
    g_interrupt = 1


cdef int catch_sigint():
    """Route SIGINT to ``g_interrupt`` if this is the main thread of the main process
    and SIGINT is not ignored; returns whether it did (``release_sigint`` follows)."""
    global g_interrupt, g_prev_sigint
    cdef sighandler_t prev
    if (threading.current_thread() is not threading.main_thread()
            or multiprocessing.parent_process() is not None):
        return 0
    g_interrupt = 0
    prev = c_signal(SIGINT, on_sigint)
    if prev == SIG_ERR:
        return 0
    if prev == SIG_IGN:
        c_signal(SIGINT, prev)
        return 0
    g_prev_sigint = prev
    return 1


cdef int release_sigint(int caught) except -1:
    """Give SIGINT back to its handler; after a Ctrl-C, raise it there (Python's
    handler raises KeyboardInterrupt) and raise KeyboardInterrupt in any case: the
    search gave up, so there is no value to return."""
    global g_interrupt
    if not caught:
        return 0
    c_signal(SIGINT, g_prev_sigint)
    if g_interrupt:
        g_interrupt = 0
        py_signal.raise_signal(py_signal.SIGINT)
        raise KeyboardInterrupt
    return 0


# -- small helpers ----------------------------------------------------------------

cdef inline double mono_seconds() noexcept nogil:
    cdef timespec ts
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return <double>ts.tv_sec + 1e-9 * <double>ts.tv_nsec


cdef inline int past_limit(Ctx* c) noexcept nogil:
    """Whether the caller's node or time limit is reached (the clock is read
    every 1,024 nodes); once it is, it stays reached."""
    if not c.stopped:
        if c.stop_nodes and c.st.nodes >= c.stop_nodes:
            c.stopped = 1
        elif c.deadline > 0 and (c.st.nodes & 1023) == 0 and mono_seconds() >= c.deadline:
            c.stopped = 1
    return c.stopped


cdef inline int high_bit(uint64_t x) noexcept nogil:
    return 63 - __builtin_clzll(x)


cdef inline int beats(const Rules* r, int card, int best) noexcept nogil:
    """Whether ``card`` beats the card ``best`` winning the trick so far."""
    if (card >> 4) == (best >> 4):
        return card > best
    return (card >> 4) == r.trump


cdef inline uint64_t trick_mask(const Pos* p) noexcept nogil:
    cdef uint64_t m = 0
    cdef int i
    for i in range(p.ntrick):
        m |= (<uint64_t>1) << p.trick_card[i]
    return m


cdef inline int highest_trump_rank(const Pos* p, int trump) noexcept nogil:
    cdef int i, best = -1
    for i in range(p.ntrick):
        if (p.trick_card[i] >> 4) == trump and (p.trick_card[i] & 15) > best:
            best = p.trick_card[i] & 15
    return best


cdef uint64_t legal_mask(const Pos* p, const Rules* r, int seat) noexcept nogil:
    """The cards ``seat`` may play now (SPEC §2)."""
    cdef uint64_t h = p.hand[seat]
    cdef uint64_t follow, tr, higher
    cdef int led, hi
    if p.ntrick == 0:
        if r.heart_lead:
            follow = h & ~SUIT_MASK[1]
            if follow:
                return follow
        return h
    led = p.trick_card[0] >> 4
    follow = h & SUIT_MASK[led]
    if r.king_duty and (h >> KH_CARD) & 1:
        if led == 1 or not follow:
            return (<uint64_t>1) << KH_CARD
    if follow:
        if r.trump_duties and led == r.trump:
            hi = highest_trump_rank(p, led)
            higher = follow & ((<uint64_t>ABOVE[hi]) << (16 * led))
            if higher:
                return higher
        return follow
    if r.trump_duties and r.trump >= 0:
        tr = h & SUIT_MASK[r.trump]
        if tr:
            hi = highest_trump_rank(p, r.trump)
            if hi < 0:
                return tr
            higher = tr & ((<uint64_t>ABOVE[hi]) << (16 * r.trump))
            if higher:
                return higher
    return h


cdef inline int32_t bound_lo(const Pos* p, const Rules* r) noexcept nogil:
    return p.pts_neg + r.neg_suffix[14 - p.tricks_left]


cdef inline int32_t bound_hi(const Pos* p, const Rules* r) noexcept nogil:
    return p.pts_pos + r.pos_suffix[14 - p.tricks_left]


# -- Ravage City ---------------------------------------------------------------------

cdef int32_t ravage_final(const Pos* p, const Rules* r) noexcept nogil:
    cdef int s, i, k = 0, best = -1
    cdef int mx[4]
    cdef int32_t v = 0
    for i in range(4):
        mx[i] = 0
        for s in range(4):
            if p.won[i][s] > mx[i]:
                mx[i] = p.won[i][s]
        if mx[i] > best:
            best = mx[i]
    if best <= 0:
        return 0
    for i in range(4):
        if mx[i] == best:
            k += 1
    for i in range(4):
        if mx[i] == best and (p.side >> i) & 1:
            v += r.ravage_share[k]
    return v


cdef void ravage_bounds(const Pos* p, const Rules* r, int32_t* lo, int32_t* hi) noexcept nogil:
    """Bounds of the side's Ravage score from the cards won and the cards left."""
    cdef int s, i, j
    cdef int cur[4]
    cdef int pot[4]
    cdef int left[4]
    cdef uint64_t rest = p.hand[0] | p.hand[1] | p.hand[2] | p.hand[3] | trick_mask(p)
    cdef int possible_side = 0, sure = -1, other
    cdef int32_t pen = r.ravage_share[1]
    for s in range(4):
        left[s] = __builtin_popcountll(rest & SUIT_MASK[s])
    for i in range(4):
        cur[i] = 0
        pot[i] = 0
        for s in range(4):
            if p.won[i][s] > cur[i]:
                cur[i] = p.won[i][s]
            if p.won[i][s] + left[s] > pot[i]:
                pot[i] = p.won[i][s] + left[s]
    for i in range(4):
        other = 0
        for j in range(4):
            if j != i and cur[j] > other:
                other = cur[j]
        if pot[i] >= other and pot[i] > 0 and (p.side >> i) & 1:
            possible_side = 1
        other = 0
        for j in range(4):
            if j != i and pot[j] > other:
                other = pot[j]
        if cur[i] > other:
            sure = i
    if sure >= 0:
        lo[0] = pen if (p.side >> sure) & 1 else 0
        hi[0] = lo[0]
        return
    if not possible_side:
        lo[0] = 0
        hi[0] = 0
        return
    lo[0] = pen if pen < 0 else 0
    hi[0] = pen if pen > 0 else 0


# -- transposition table with relevant ranks (partition search) ------------------
#
# An entry holds a bound on the future value for a whole class of positions: the
# same leader, side, suit lengths of every hand (and Ravage counts), and, in each
# suit, the same owners and score classes of the top ``k`` cards left; the cards
# below them are "small": only their number in each hand matters, and how many
# small cards of each special score class (a Queen in No Queens, the K♥) each hand
# holds.  ``k`` comes from the cards that decided a trick against a card of their
# suit in the lines that proved the bound (DDS's winning ranks); the whole trump
# suit counts when trumping duties make ranks matter for legality.

cdef struct Codes:
    uint64_t lens        # suit lengths, 4 bits for each hand and suit
    uint64_t won         # Ravage counts
    uint32_t own[4]      # owners, top card first, 2 bits a card
    uint32_t cls[4]      # class planes (plane 0 | plane 1 << 13), top card first; or the mask
    uint32_t rem[4]      # the suit's cards left (13-bit mask)
    uint32_t olo[4]      # owner bit 0 of each card, top card first
    uint32_t ohi[4]      # owner bit 1 of each card, top card first
    int length[4]        # cards left in each suit
    int spec[4]          # top cards down to the lowest special card left (0: none)
    uint32_t spec4       # spec[s] in byte s
    uint64_t own2[2]     # own[2i] | own[2i + 1] << 32
    uint64_t cls2[2]     # cls[2i] | cls[2i + 1] << 32
    uint8_t misc         # leader | side << 2


cdef inline uint32_t spread2(uint64_t t) noexcept nogil:
    """Interleave the low 13 bits of ``t`` (bits 0, 2, 4, ...) with bits 32..44 of
    ``t`` (bits 1, 3, 5, ...): two owner bit planes into 2 bits a card."""
    t = (t | (t << 8)) & <uint64_t>0x00FF00FF00FF00FF
    t = (t | (t << 4)) & <uint64_t>0x0F0F0F0F0F0F0F0F
    t = (t | (t << 2)) & <uint64_t>0x3333333333333333
    t = (t | (t << 1)) & <uint64_t>0x5555555555555555
    return <uint32_t>(t | (t >> 31))


cdef void make_codes(const Pos* p, const Rules* r, Codes* k) noexcept nogil:
    cdef int s, n, h, j
    cdef uint64_t all4 = p.hand[0] | p.hand[1] | p.hand[2] | p.hand[3]
    cdef uint64_t o0 = p.hand[1] | p.hand[3]
    cdef uint64_t o1 = p.hand[2] | p.hand[3]
    cdef uint64_t w, acc, sp
    cdef uint32_t x, rem
    k.lens = 0
    for h in range(4):
        for s in range(4):
            k.lens |= (<uint64_t>__builtin_popcountll(p.hand[h] & SUIT_MASK[s])) << (4 * (4 * h + s))
    k.won = 0
    if r.ravage:
        for s in range(4):
            for j in range(4):
                k.won |= (<uint64_t>p.won[j][s]) << (4 * (4 * j + s))
    k.misc = <uint8_t>(p.leader | (p.side << 2))
    for s in range(4):
        rem = <uint32_t>((all4 >> (16 * s)) & SUIT_BITS)
        k.rem[s] = rem
        n = __builtin_popcountll(<uint64_t>rem)
        k.length[s] = n
        # the top cards down to the lowest special card left
        sp = r.special[s] & rem
        k.spec[s] = __builtin_popcountll(<uint64_t>(rem >> __builtin_ctzll(sp))) if sp else 0
        # the four rank masks to pack top card first, one in each 16-bit lane:
        # owner bit 0, class plane 0, owner bit 1, class plane 1; one pass over the
        # cards, lowest first (each shifts up the bits of the cards below it), packs
        # all four
        w = ((o0 >> (16 * s)) & SUIT_BITS) | (((o1 >> (16 * s)) & SUIT_BITS) << 32) \
            | (r.sym_plane[s][0] << 16) | (r.sym_plane[s][1] << 48)
        acc = 0
        x = rem
        while x:
            acc = (acc << 1) | ((w >> __builtin_ctzll(<uint64_t>x)) & <uint64_t>0x0001000100010001)
            x &= x - 1
        k.olo[s] = <uint32_t>(acc & 0xFFFF)
        k.ohi[s] = <uint32_t>((acc >> 32) & 0xFFFF)
        k.own[s] = spread2(acc & <uint64_t>0x0000FFFF0000FFFF)
        k.cls[s] = rem if r.sym_mode[s] == 2 else \
            <uint32_t>(((acc >> 16) & 0xFFFF) | ((acc >> 48) << 13))
    k.spec4 = <uint32_t>(k.spec[0] | (k.spec[1] << 8) | (k.spec[2] << 16) | (k.spec[3] << 24))
    for s in range(2):
        k.own2[s] = k.own[2 * s] | (<uint64_t>k.own[2 * s + 1] << 32)
        k.cls2[s] = k.cls[2 * s] | (<uint64_t>k.cls[2 * s + 1] << 32)


cdef inline uint32_t small_sig(const Codes* k, const Rules* r, int s, int kk) noexcept nogil:
    """For the cards of suit ``s`` below the top ``kk``: how many of each special class
    (not the suit's base class) each hand holds, 2 bits a count; 0xFFFFFFFF if a count
    does not fit."""
    cdef uint32_t allm, small, p0, p1, cj, oh, sig = 0
    cdef int j, h, n
    if r.sym_mode[s] != 1:
        return 0
    allm = (<uint32_t>1 << k.length[s]) - 1
    small = allm & ~((<uint32_t>1 << kk) - 1)
    if not small:
        return 0
    p0 = k.cls[s] & SUIT_BITS
    p1 = (k.cls[s] >> 13) & SUIT_BITS
    for j in range(1, 4):
        cj = ((p0 if j & 1 else ~p0) & (p1 if j & 2 else ~p1)) & small
        if not cj:
            continue
        for h in range(4):
            oh = (k.olo[s] if h & 1 else ~k.olo[s]) & (k.ohi[s] if h & 2 else ~k.ohi[s])
            n = __builtin_popcountll(<uint64_t>(cj & oh))
            if n > 3:
                return SIG_FULL
            sig |= (<uint32_t>n) << (2 * (3 * h + j - 1))
    return sig


cdef inline uint64_t hash_codes(const Codes* k) noexcept nogil:
    # The bucket: the suit lengths, leader, side, Ravage counts and the owner of the
    # top card of each suit.  An entry whose pattern does not cover a suit's top card
    # is then only found from positions with the same top owner there (a lost hit,
    # never a wrong one), and positions spread over many buckets.
    cdef uint64_t tops = (k.own[0] & 3) | ((k.own[1] & 3) << 2) | ((k.own[2] & 3) << 4) | ((k.own[3] & 3) << 6)
    cdef uint64_t h = (k.lens ^ (tops << 56) ^ (tops * <uint64_t>0x2545F4914F6CDD1D)) * <uint64_t>0x9E3779B97F4A7C15
    h ^= (k.won + k.misc) * <uint64_t>0xC2B2AE3D27D4EB4F + (h >> 29)
    h ^= h >> 31
    h *= <uint64_t>0xBF58476D1CE4E5B9
    h ^= h >> 32
    return h


cdef inline int entry_matches(const TTEntry* e, const Codes* k, const Rules* r, uint32_t gen) noexcept nogil:
    """Whether the entry is of generation ``gen`` and its pattern covers the position."""
    cdef int s, i, j
    cdef uint32_t kw
    cdef uint64_t bo0, bo1
    # Two suits at a time (masks indexed by both counts of top cards): first the
    # owners of the top cards, where most candidates of a bucket fail ...
    i = e.k[0] | (e.k[1] << 4)
    j = e.k[2] | (e.k[3] << 4)
    bo0 = BOT_OWN[k.length[0]][e.j[0]] | (<uint64_t>BOT_OWN[k.length[1]][e.j[1]] << 32)
    bo1 = BOT_OWN[k.length[2]][e.j[2]] | (<uint64_t>BOT_OWN[k.length[3]][e.j[3]] << 32)
    if (k.own2[0] ^ (e.own[0] | (<uint64_t>e.own[1] << 32))) & (OWN_MASK2[i] | bo0):
        return 0
    if (k.own2[1] ^ (e.own[2] | (<uint64_t>e.own[3] << 32))) & (OWN_MASK2[j] | bo1):
        return 0
    # (the generation and coarse key: almost always equal when the tag is)
    if e.gen != gen or e.lens != k.lens or e.won != k.won or e.misc != k.misc:
        return 0
    # ... then their classes, and no special card below the top e.k[s] cards: no
    # byte of kw less than the byte of spec4 (bytes of at most 13, so no borrows)
    kw = e.k[0] | (<uint32_t>e.k[1] << 8) | (<uint32_t>e.k[2] << 16) | (<uint32_t>e.k[3] << 24)
    bo0 = BOT_CLS[k.length[0]][e.j[0]] | (<uint64_t>BOT_CLS[k.length[1]][e.j[1]] << 32)
    bo1 = BOT_CLS[k.length[2]][e.j[2]] | (<uint64_t>BOT_CLS[k.length[3]][e.j[3]] << 32)
    if ((k.cls2[0] ^ (e.cls[0] | (<uint64_t>e.cls[1] << 32))) & (r.cls_mask2[0][i] | bo0)) \
            | ((k.cls2[1] ^ (e.cls[2] | (<uint64_t>e.cls[3] << 32))) & (r.cls_mask2[1][j] | bo1)) \
            | ((((kw | <uint32_t>0x80808080) - k.spec4) & <uint32_t>0x80808080) ^ <uint32_t>0x80808080):
        return 0
    for s in range(4):
        if r.sym_mode[s] == 1 and small_sig(k, r, s, e.k[s]) != e.sig[s]:
            return 0
    return 1


cdef inline uint64_t region_cards(const Codes* k, const uint8_t* kk, const uint8_t* jj) noexcept nogil:
    """The mask of the top ``kk[s]`` and the bottom ``jj[s]`` cards left in each suit."""
    cdef uint64_t m = 0
    cdef uint32_t x, t, b
    cdef int s, i, n
    for s in range(4):
        x = k.rem[s]
        n = kk[s]
        if 2 * n <= k.length[s]:
            # take the top n cards
            t = 0
            for i in range(n):
                b = <uint32_t>1 << high_bit(<uint64_t>x)
                x ^= b
                t |= b
        else:
            # drop the bottom length - n cards
            t = x
            for i in range(k.length[s] - n):
                t &= t - 1
        # and the bottom jj cards
        x = k.rem[s]
        for i in range(jj[s]):
            t |= x & (~x + 1)
            x &= x - 1
        m |= (<uint64_t>t) << (16 * s)
    return m


cdef inline void pattern_of(const Codes* k, const Rules* r, uint64_t rel, uint8_t* kk,
                            uint8_t* jj) noexcept nogil:
    """How many top (``kk``) and bottom (``jj``) cards of each suit a bound proved
    with relevant cards ``rel`` needs.

    Every relevant card must lie in one of the two ends; the cards between them are
    then small cards whose order the bound never used (they lie above every relevant
    card of the bottom end and below every one of the top end), so only how many
    each hand holds matters.  Of the splits of the relevant cards between the ends,
    the one that matches the fewest cards is taken: the top end in contracts where
    tricks are won with high cards, often the bottom end in those where low cards
    duck."""
    cdef int s, n, t, b, best, cost, above, top
    cdef uint32_t rs, rem, x
    for s in range(4):
        rem = k.rem[s]
        n = k.length[s]
        rs = <uint32_t>((rel >> (16 * s)) & SUIT_BITS) & rem
        t = 0
        b = 0
        if rs:
            # all at the top: down to the lowest relevant card
            t = __builtin_popcountll(<uint64_t>(rem & ~((<uint32_t>1 << __builtin_ctzll(<uint64_t>rs)) - 1)))
            best = t
            # (positive contracts keep the top end only: better there, as in DDS)
            x = 0 if r.positive else rs
            # all at the bottom: up to the highest relevant card
            cost = __builtin_popcountll(<uint64_t>(rem & ((<uint32_t>2 << high_bit(<uint64_t>rs)) - 1)))
            if x and cost < best:
                best = cost
                t = 0
                b = cost
            # split between two relevant cards next to each other (high one at the top)
            while x & (x - 1):
                above = high_bit(<uint64_t>x)
                x ^= <uint32_t>1 << above
                top = __builtin_popcountll(<uint64_t>(rem & ~((<uint32_t>1 << above) - 1)))
                cost = top + __builtin_popcountll(<uint64_t>(rem & ((<uint32_t>2 << high_bit(<uint64_t>x)) - 1)))
                if cost < best:
                    best = cost
                    t = top
                    b = cost - top
        if k.spec[s] > t:
            t = k.spec[s]
        if r.sym_mode[s] == 2 or t + b >= n or small_sig(k, r, s, t) == SIG_FULL:
            t = n
            b = 0
        kk[s] = <uint8_t>t
        jj[s] = <uint8_t>b


cdef inline uint32_t tag_of(uint64_t h, uint32_t gen) noexcept nogil:
    """The low half of a tag: the coarse key's high hash bits and the generation
    (never 0, so that an empty entry, tag 0 and no free bits, never matches)."""
    return (((<uint32_t>(h >> 32)) ^ (gen * <uint32_t>0x9E3779B1)) & 0xFFFF) | 1


cdef inline int bucket_used(const Ctx* c, uint64_t b) noexcept nogil:
    """How many entries of bucket ``b`` the current generation has filled (the
    rest are empty or stale and are not scanned)."""
    cdef uint32_t f = c.fill[b]
    if (f >> 8) != (c.gen & <uint32_t>0xFFFFFF):
        return 0
    return <int>(f & 0xFF)


cdef inline int tt_lookup(Ctx* c, const Codes* k, uint64_t h, int32_t target, int32_t* bound,
                          uint8_t* kk, uint8_t* jj, uint16_t* best) noexcept nogil:
    """Looks the position up: 1 if a matching entry decides the probe at ``target``
    (``bound``: its bound; ``kk``, ``jj``: its pattern), else 0 (``best``: the best
    move of the first matching entry that has one, or 0xFFFF).  With two threads the
    bucket's seqlock is checked after the read: a bucket written meanwhile is a miss."""
    cdef uint64_t b = h & c.tt_mask
    cdef TTEntry* bucket = c.tt + b * TT_WAYS
    cdef uint32_t* btags = c.tags + b * (2 * TT_WAYS)
    cdef uint32_t tag = tag_of(h, c.gen) | owner_sig(k.own), hits, s1 = 0
    cdef TTEntry* e
    cdef TTEntry* found = NULL
    cdef int g, s
    cdef int32_t lb = 0, ub = 0
    best[0] = 0xFFFF
    if c.seq != NULL:
        s1 = bdd_seq_read_begin(c.seq + b)
        if s1 & 1:
            return 0
    for g in range(0, bucket_used(c, b), 16):
        hits = bdd_tag_hits16(btags + g, btags + TT_WAYS + g, tag)
        while hits:
            e = &bucket[g + __builtin_ctzll(hits)]
            hits &= hits - 1
            if not entry_matches(e, k, c.r, c.gen):
                continue
            lb = e.lb
            ub = e.ub
            if lb >= target or ub < target:
                for s in range(4):
                    kk[s] = e.k[s]
                    jj[s] = e.j[s]
                found = e
                break
            if best[0] == 0xFFFF:
                best[0] = e.best
        if found != NULL:
            break
    if c.seq != NULL and not bdd_seq_read_ok(c.seq + b, s1):
        best[0] = 0xFFFF
        return 0
    if found == NULL:
        return 0
    if c.seq == NULL:
        found.stamp = <uint32_t>c.st.nodes
    elif not c.helper:
        bdd_store_u32(&found.stamp, <uint32_t>c.st.nodes)
    bound[0] = lb if lb >= target else ub
    return 1


cdef inline uint32_t owner_sig(const uint32_t* own) noexcept nogil:
    """The high half of a tag: the owners of the second and third cards of each suit
    (4 bits a suit), from Codes.own or an entry's masked owners."""
    return (((own[0] >> 2) & 15) | (((own[1] >> 2) & 15) << 4) | (((own[2] >> 2) & 15) << 8)
            | (((own[3] >> 2) & 15) << 12)) << 16


cdef inline void tt_store(Ctx* c, const Codes* k, uint64_t h, uint64_t rel, int32_t lb,
                          int32_t ub, int depth, uint16_t best) noexcept nogil:
    """Stores a bound of the position (pattern from ``rel``) in its bucket; with two
    threads, holding the bucket's seqlock."""
    cdef uint32_t* sq
    if c.seq == NULL:
        tt_write(c, k, h, rel, lb, ub, depth, best)
    else:
        sq = c.seq + (h & c.tt_mask)
        bdd_seq_write_begin(sq)
        tt_write(c, k, h, rel, lb, ub, depth, best)
        bdd_seq_write_end(sq)


cdef inline void tt_write(Ctx* c, const Codes* k, uint64_t h, uint64_t rel, int32_t lb,
                          int32_t ub, int depth, uint16_t best) noexcept nogil:
    cdef uint64_t b = h & c.tt_mask
    cdef uint64_t base = b * TT_WAYS
    cdef int used = bucket_used(c, b)
    cdef TTEntry* e = c.tt + base
    cdef uint32_t* tags = c.tags + 2 * base
    cdef uint32_t* free_bits = tags + TT_WAYS
    cdef uint32_t tag, free_mask
    cdef uint32_t omask[4]
    cdef TTEntry* victim = NULL
    cdef uint8_t kk[4]
    cdef uint8_t jj[4]
    cdef uint32_t own[4]
    cdef uint32_t cls[4]
    cdef uint32_t sig[4]
    cdef int w, s, same, g
    cdef uint32_t now, hits, age, oldest = 0
    pattern_of(k, c.r, rel, kk, jj)
    for s in range(4):
        omask[s] = OWN_MASK[kk[s]] | BOT_OWN[k.length[s]][jj[s]]
        own[s] = k.own[s] & omask[s]
        cls[s] = k.cls[s] & (c.r.cls_mask[s][kk[s]] | BOT_CLS[k.length[s]][jj[s]])
        sig[s] = small_sig(k, c.r, s, kk[s])
    tag = tag_of(h, c.gen) | owner_sig(own)
    free_mask = ~(<uint32_t>0xFFFF | owner_sig(omask))
    for g in range(0, used, 16):
        hits = bdd_tag_hits16(tags + g, free_bits + g, tag)
        while hits:
            w = g + __builtin_ctzll(hits)
            hits &= hits - 1
            if e[w].gen != c.gen or e[w].lens != k.lens or e[w].won != k.won \
                    or e[w].misc != k.misc:
                continue
            same = 1
            for s in range(4):
                if e[w].k[s] != kk[s] or e[w].j[s] != jj[s] or e[w].own[s] != own[s] or e[w].cls[s] != cls[s] \
                        or e[w].sig[s] != sig[s]:
                    same = 0
                    break
            if same:
                if lb > e[w].lb:
                    e[w].lb = lb
                if ub < e[w].ub:
                    e[w].ub = ub
                if best != 0xFFFF:
                    e[w].best = best
                e[w].stamp = <uint32_t>c.st.nodes
                return
    now = <uint32_t>c.st.nodes
    if used < TT_WAYS:
        # fill in order; the bucket's tags past ``used`` are cleared as it grows
        victim = &e[used]
        if used % 16 == 0:
            memset(tags + used, 0, 16 * sizeof(uint32_t))
            memset(free_bits + used, 0, 16 * sizeof(uint32_t))
        c.fill[b] = ((c.gen & <uint32_t>0xFFFFFF) << 8) | <uint32_t>(used + 1)
    else:
        # replace the entry least recently used, its age halved for every two
        # tricks left it covers (an entry high in the tree saves a large search):
        # with a 64 MiB table No Last Two deal 7 204.7 M -> 81.5 M nodes, No Hearts
        # deal 2 242.2 M -> 189.6 M; with 256 MiB within 1 % (benchmarks/HISTORY.md)
        for w in range(TT_WAYS):
            age = (now - e[w].stamp) >> (e[w].depth >> 1)
            if victim == NULL or age > oldest:
                victim = &e[w]
                oldest = age
    tags[victim - e] = tag
    free_bits[victim - e] = free_mask
    victim.lens = k.lens
    victim.won = k.won
    victim.misc = k.misc
    for s in range(4):
        victim.k[s] = kk[s]
        victim.j[s] = jj[s]
        victim.own[s] = own[s]
        victim.cls[s] = cls[s]
        victim.sig[s] = sig[s]
    victim.lb = lb
    victim.ub = ub
    victim.gen = c.gen
    victim.depth = <uint16_t>depth
    victim.stamp = now
    victim.best = best
    c.st.tt_stores += 1


# -- moves ---------------------------------------------------------------------------

cdef inline int lead_top(const Pos* p, int seat, int s, int* rank) noexcept nogil:
    """The holder of the other hands' highest card of suit ``s`` (a guess at the
    winner of a lead of ``s`` below it), and in ``rank`` that card's rank (-1 if
    the others hold none)."""
    cdef uint64_t all4 = p.hand[0] | p.hand[1] | p.hand[2] | p.hand[3]
    cdef uint32_t others = <uint32_t>(((all4 & ~p.hand[seat]) >> (16 * s)) & SUIT_BITS)
    cdef int o
    rank[0] = -1
    if not others:
        return seat
    rank[0] = high_bit(<uint64_t>others)
    for o in range(4):
        if (p.hand[o] >> (16 * s + rank[0])) & 1:
            return o
    return seat


cdef inline int trick_so_far(const Pos* p, const Rules* r, int seat, int card, int* wcard,
                             int* led) noexcept nogil:
    """The seat winning the current trick once ``seat`` plays ``card``, its card in
    ``wcard`` and the suit led in ``led``."""
    cdef int wseat
    if p.ntrick == 0:
        wcard[0] = card
        led[0] = card >> 4
        return seat
    wcard[0] = p.trick_card[p.win_idx]
    wseat = (p.leader + p.win_idx) & 3
    led[0] = p.trick_card[0] >> 4
    if beats(r, card, wcard[0]):
        wcard[0] = card
        wseat = seat
    return wseat


cdef inline int est_winner(const Pos* p, const Rules* r, int seat, int card) noexcept nogil:
    """A guess at the seat that wins the current trick if ``seat`` plays ``card`` now,
    when tricks are worth winning: each later seat plays its highest card of the suit
    led or, void, its highest trump, and the best card wins."""
    cdef int wcard, wseat, i, o, led, cand
    cdef uint32_t ls
    wseat = trick_so_far(p, r, seat, card, &wcard, &led)
    for i in range(p.ntrick + 1, 4):
        o = (p.leader + i) & 3
        ls = <uint32_t>((p.hand[o] >> (16 * led)) & SUIT_BITS)
        if ls:
            cand = 16 * led + high_bit(<uint64_t>ls)
        elif r.trump >= 0 and (p.hand[o] & SUIT_MASK[r.trump]):
            cand = high_bit(p.hand[o] & SUIT_MASK[r.trump])
        else:
            continue
        if beats(r, cand, wcard):
            wcard = cand
            wseat = o
    return wseat


cdef inline int est_trick_neg(const Pos* p, const Rules* r, int seat, int card, int32_t* pts) noexcept nogil:
    """A guess at the winner of the current trick and the card points it carries if
    ``seat`` plays ``card`` now, when tricks cost points and nobody wants them.

    Each later seat that can follow ducks with its highest card under the winning
    one, or must overtake with its lowest; the K♥ falls when its duty says so; a void
    seat not on the winning side dumps its most costly card on the trick."""
    cdef int wcard, wseat, i, o, led, cand, b, nv = 0
    cdef int voids[3]
    cdef uint32_t ls, below
    cdef uint64_t h
    cdef int32_t tot = r.card_points[card], worst
    for i in range(p.ntrick):
        tot += r.card_points[p.trick_card[i]]
    wseat = trick_so_far(p, r, seat, card, &wcard, &led)
    for i in range(p.ntrick + 1, 4):
        o = (p.leader + i) & 3
        h = p.hand[o]
        ls = <uint32_t>((h >> (16 * led)) & SUIT_BITS)
        if r.king_duty and (h >> KH_CARD) & 1 and (led == 1 or not ls):
            cand = KH_CARD
        elif ls:
            below = ls & ((<uint32_t>1 << (wcard & 15)) - 1) if (wcard >> 4) == led else ls
            if below:
                cand = 16 * led + high_bit(<uint64_t>below)
            else:
                cand = 16 * led + __builtin_ctzll(<uint64_t>ls)
        else:
            voids[nv] = o
            nv += 1
            continue
        tot += r.card_points[cand]
        if beats(r, cand, wcard):
            wcard = cand
            wseat = o
    for i in range(nv):
        o = voids[i]
        if ((p.side >> o) & 1) == ((p.side >> wseat) & 1):
            continue
        h = p.hand[o] & r.point_cards
        worst = 0
        while h:
            b = __builtin_ctzll(h)
            h &= h - 1
            if r.card_points[b] < worst:
                worst = r.card_points[b]
        tot += worst
    pts[0] = tot
    return wseat


cdef inline int top_holders(const Pos* p, int s, int* hold) noexcept nogil:
    """The seats holding the three highest cards left of suit ``s`` in ``hold`` (-1
    past the suit's end); returns the second card's rank (-1 if none)."""
    cdef uint64_t all4 = p.hand[0] | p.hand[1] | p.hand[2] | p.hand[3]
    cdef uint32_t x = <uint32_t>((all4 >> (16 * s)) & SUIT_BITS)
    cdef int i, b, o, rank2 = -1
    for i in range(3):
        hold[i] = -1
        if x:
            b = high_bit(<uint64_t>x)
            x &= ~(<uint32_t>1 << b)
            if i == 1:
                rank2 = b
            for o in range(4):
                if (p.hand[o] >> (16 * s + b)) & 1:
                    hold[i] = o
    return rank2


cdef inline int lead_bonus(const Pos* p, int seat, const int* hold) noexcept nogil:
    """A small preference between lead suits when tricks are worth winning (after DDS),
    from the holders of the suit's top three cards (:func:`top_holders`): a suit whose
    top two cards the leader's side holds is a safe winner; one where an opponent
    holds the top card but the side the next two sets up a winner."""
    cdef int ours[3]
    cdef int i, mine = (p.side >> seat) & 1, bonus = 0
    for i in range(3):
        ours[i] = -1 if hold[i] < 0 else ((p.side >> hold[i]) & 1) == mine
    if ours[0] == 0 and ours[1] == 1 and ours[2] == 1:
        bonus += 3
    if ours[0] == 1 and ours[1] == 1:
        bonus += 2
    # (a malus for suits an opponent can ruff, as in DDS, made Trumps 3.7x slower)
    return bonus


cdef int lead_weight_nt(const Pos* p, int seat, int card, const int* hold, int rank2) noexcept nogil:
    """DDS's weight of a lead in notrump (Moves::WeightAllocNT0, without its best-move
    terms): suits where the opponents hold few cards first (a smaller tree), then
    leads that win the trick or set up the side's next-highest cards.  ``hold`` and
    ``rank2``: the suit's top three holders and second rank (:func:`top_holders`)."""
    cdef int s = card >> 4, rk = card & 15
    cdef int lho = (seat + 1) & 3, pd = (seat + 2) & 3, rho = (seat + 3) & 3
    cdef uint64_t all4 = p.hand[0] | p.hand[1] | p.hand[2] | p.hand[3]
    cdef uint32_t x = <uint32_t>((all4 >> (16 * s)) & SUIT_BITS)
    cdef uint32_t ml = <uint32_t>((p.hand[lho] >> (16 * s)) & SUIT_BITS)
    cdef uint32_t mr = <uint32_t>((p.hand[rho] >> (16 * s)) & SUIT_BITS)
    cdef uint32_t mp = <uint32_t>((p.hand[pd] >> (16 * s)) & SUIT_BITS)
    cdef uint32_t mine = <uint32_t>((p.hand[seat] >> (16 * s)) & SUIT_BITS)
    cdef int cl = __builtin_popcountll(<uint64_t>ml), cr = __builtin_popcountll(<uint64_t>mr)
    cdef int cp = __builtin_popcountll(<uint64_t>mp)
    cdef int d, w, rrank, seq, lower
    # a void opponent counts as many cards as it holds (it may play any of them)
    d = -(((((cl if cl else p.tricks_left) << 2) + ((cr if cr else p.tricks_left) << 2)) << 5) // 19)
    if cp == 0:
        d -= 9
    rrank = rel_rank(x, rk)
    lower = x & ((<uint32_t>1 << rk) - 1)
    seq = lower != 0 and (mine >> high_bit(<uint64_t>lower)) & 1
    if hold[0] == seat and not (x & ABOVE[rk]) or (mp and high_bit(<uint64_t>mp) > high_bit(<uint64_t>(ml | mr | 1)) and (ml | mr) != 0) \
            or (mp and not (ml | mr)):
        if hold[1] == rho:
            if cr != 1:
                d -= 1
        elif hold[1] == lho:
            d += 22 if cl != 1 else 16
        if (hold[1] != lho or cl == 1) and (hold[1] != rho or cr == 1):
            w = d + 45 + rrank
        else:
            w = d + 18 + rrank
    else:
        if hold[0] == rho or hold[1] == rho:
            if cr != 1:
                d -= 10
        elif hold[0] == lho and hold[1] == pd:
            if cp != 1:
                d += 31
        if hold[1] == pd and hold[2] == pd:
            d += 35
        elif ((hold[1] == seat and hold[2] == pd) or (hold[1] == pd and hold[2] == seat)) and cp > 1:
            d += 25
        if (cl == 1 and hold[0] == lho) or (cr == 1 and hold[0] == rho):
            w = d + 28 + rrank
        elif hold[0] == seat:
            w = d - 17 + rrank
        elif not seq:
            w = d + 12 + rrank
        elif rk == rank2:
            w = d + 48
        else:
            w = d + 29 - rrank
    return w


cdef inline int discard_weight(const Pos* p, int seat, int s) noexcept nogil:
    """A preference between suits to discard from when tricks are worth winning
    (after DDS): long suits first, not from a doubleton holding the suit's second
    card, nor a singleton top card (the card's rank is subtracted per card)."""
    cdef uint64_t all4 = p.hand[0] | p.hand[1] | p.hand[2] | p.hand[3]
    cdef uint32_t x = <uint32_t>((all4 >> (16 * s)) & SUIT_BITS)
    cdef uint32_t mine = <uint32_t>((p.hand[seat] >> (16 * s)) & SUIT_BITS)
    cdef int ln = __builtin_popcountll(<uint64_t>mine), w, b
    w = 16 + (ln << 6) // 24
    b = high_bit(<uint64_t>x)
    if ln == 1 and (mine >> b) & 1:
        w -= 4
    elif ln == 2:
        x &= ~(<uint32_t>1 << b)
        if x and (mine >> high_bit(<uint64_t>x)) & 1 and not (mine >> b) & 1:
            w -= 4
    return w


cdef inline uint32_t lane(uint64_t h, int s) noexcept nogil:
    """The 13 ranks of suit ``s`` in hand (or mask) ``h``."""
    return <uint32_t>((h >> (16 * s)) & SUIT_BITS)


cdef inline int dds_rank(uint32_t x) noexcept nogil:
    """The highest rank of a suit holding counted 2..14 as DDS does (0: void)."""
    return high_bit(<uint64_t>x) + 2 if x else 0


cdef inline int dds_low(uint32_t x) noexcept nogil:
    """The lowest rank of a suit holding counted 2..14 (0: void)."""
    return __builtin_ctzll(<uint64_t>x) + 2 if x else 0


cdef inline int rel_rank(uint32_t x, int rk) noexcept nogil:
    """DDS's relative rank of ``rk`` among the ranks ``x`` left: 1 for the highest."""
    return 1 + __builtin_popcountll(<uint64_t>(x & ABOVE[rk]))


cdef inline int in_sequence(uint32_t mine, uint32_t present, int rk) noexcept nogil:
    """Whether the next lower card left below ``rk`` is also the mover's (the move
    stands for a sequence of cards)."""
    cdef uint32_t lower = present & ((<uint32_t>1 << rk) - 1)
    return lower != 0 and (mine >> high_bit(<uint64_t>lower)) & 1


cdef inline int kx_holding(uint32_t mine, uint32_t x) noexcept nogil:
    """Whether ``mine`` is a doubleton holding the suit's second card (Kx)."""
    cdef int b
    if __builtin_popcountll(<uint64_t>mine) != 2:
        return 0
    b = high_bit(<uint64_t>x)
    x &= ~(<uint32_t>1 << b)
    return x != 0 and (mine >> high_bit(<uint64_t>x)) & 1


cdef int trump_lead_weight(const Pos* p, int seat, int card, int t, const int* hold,
                           int rank2) noexcept nogil:
    """A lead's weight in a trump contract between two partnerships (after DDS's
    WeightAllocTrump0): small trees first, then leads that win the trick (the top
    card, partner's top card, a ruff by partner) or set up the side's cards."""
    cdef int s = card >> 4, rk = card & 15
    cdef int lho = (seat + 1) & 3, pd = (seat + 2) & 3, rho = (seat + 3) & 3
    cdef uint64_t all4 = p.hand[0] | p.hand[1] | p.hand[2] | p.hand[3]
    cdef uint32_t x = lane(all4, s)
    cdef uint32_t ml = lane(p.hand[lho], s), mr = lane(p.hand[rho], s), mp = lane(p.hand[pd], s)
    cdef uint32_t mine = lane(p.hand[seat], s)
    cdef uint32_t tl = lane(p.hand[lho], t), tr = lane(p.hand[rho], t), tp = lane(p.hand[pd], t)
    cdef uint32_t tm = lane(p.hand[seat], t)
    cdef int cl = __builtin_popcountll(<uint64_t>ml), cr = __builtin_popcountll(<uint64_t>mr)
    cdef int cp = __builtin_popcountll(<uint64_t>mp), cm = __builtin_popcountll(<uint64_t>mine)
    cdef int d, bonus = 0, win = 0, top, rr, seq, side = s != t
    d = -(((((cl if cl else p.tricks_left) << 2) + ((cr if cr else p.tricks_left) << 2)) << 5) // 13)
    if side and ((not ml and tl) or (not mr and tr)):
        bonus = -12
    if side and not mp and tp and cr > 0:
        bonus += 17
    if hold[0] == rho or hold[1] == rho:
        if cr != 1:
            bonus -= 12
    elif hold[0] == lho and hold[1] == pd:
        if cp != 1:
            bonus += 27
    if side and cm == 1 and tm and cp > 1 and hold[0] == pd:
        bonus += 19
    d += bonus
    top = not (x & ABOVE[rk])
    if top:
        if not side:
            win = 1
        elif mp or not tp:
            win = (ml or not tl) and (mr or not tr)
        else:
            win = (ml or tp > tl) and (mr or tp > tr)
    elif mp and (not (ml | mr) or high_bit(<uint64_t>mp) > high_bit(<uint64_t>(ml | mr))):
        win = not side or ((ml or not tl) and (mr or not tr))
    elif side and not mp and tp:
        if not ml and tl and not mr and tr:
            win = tp > (tl | tr)
        elif not ml and tl:
            win = tp > tl
        elif not mr and tr:
            win = tp > tr
        else:
            win = 1
    rr = rel_rank(x, rk)
    seq = in_sequence(mine, x, rk)
    if win:
        if (cl == 1 and hold[0] == lho) or (cr == 1 and hold[0] == rho):
            return d + 35 + rr
        if hold[0] == seat:
            if hold[1] == pd:
                return d + 48 + rr
            if top:
                return d + 31
            return d - 3 + rr
        if hold[0] == pd:
            return d + (42 if hold[1] == seat else 28) + rr
        if seq and rk == rank2:
            return d + 40
        return d + (22 if seq else 11) + rr
    if hold[1] == pd and hold[2] == pd:
        d += 20
    elif cp > 1 and ((hold[1] == seat and hold[2] == pd) or (hold[1] == pd and hold[2] == seat)):
        d += 13
    if (cl == 1 and hold[0] == lho) or (cr == 1 and hold[0] == rho):
        return d + rr + 2
    if hold[0] == seat:
        if hold[1] == pd:
            return d + 33 + rr
        if top:
            return d + 38
        return d - 14 + rr
    if hold[0] == pd:
        return d + 34 + rr
    if seq and rk == rank2:
        return d + 35
    return d + 17 - (rk + 2)


cdef inline int forces_top(const Pos* p, uint32_t mine, uint32_t present, uint32_t h4,
                           int cur, int second_wins, int rk) noexcept nogil:
    """Whether ``rk`` (third hand, following) is the cheapest card that drives out
    the fourth hand's top sequence ``h4`` or, failing that, beats second hand's
    winning card ``cur`` (DDS's RankForcesAce)."""
    cdef int b, thr = -1
    cdef uint32_t below, low
    if not h4:
        return 0
    # the fourth hand's top sequence among the cards left
    b = high_bit(<uint64_t>h4)
    below = present & ((<uint32_t>1 << b) - 1)
    while below and (h4 >> high_bit(<uint64_t>below)) & 1:
        below &= ~(<uint32_t>1 << high_bit(<uint64_t>below))
    if not below:
        return 0
    low = h4 & ((<uint32_t>1 << high_bit(<uint64_t>below)) - 1)
    if not low:
        return 0
    b = high_bit(<uint64_t>low)
    if b > cur:
        thr = b
    elif second_wins:
        thr = cur
    else:
        return 0
    if rk <= thr:
        return 0
    low = mine & ABOVE[thr]
    b = __builtin_ctzll(<uint64_t>low)
    # rk's group holds the cheapest card above thr
    return (present & ~mine & ABOVE[b] & ((<uint32_t>1 << rk) - 1)) == 0


cdef int follow_weight(const Pos* p, const Rules* r, int seat, int card) noexcept nogil:
    """The weight of following suit with ``card`` between two partnerships (after
    DDS's WeightAllocNTNotvoid1/2, WeightAllocTrumpNotvoid1/2, WeightAllocCombinedNotvoid3):
    the cheapest card that wins the trick, else low, with a few refinements (second
    hand splits a sequence, third hand drives out fourth hand's top cards)."""
    cdef int s = card >> 4, rk = card & 15, t = r.trump
    cdef int rank = rk + 2, lead = p.trick_card[0] & 15, lr = lead + 2
    cdef uint64_t all4 = p.hand[0] | p.hand[1] | p.hand[2] | p.hand[3]
    cdef uint32_t present = lane(all4 | trick_mask(p), s), mine = lane(p.hand[seat], s)
    cdef int nxt = (seat + 1) & 3, pd = (seat + 2) & 3
    cdef uint32_t h3, h4
    cdef int max3, min3, maxp, minp, max4, min4, rr, seq, win, wc, cur, my_max
    rr = rel_rank(present, rk)
    seq = in_sequence(mine, present, rk)
    if p.ntrick == 1:
        h3 = lane(p.hand[nxt], s)
        h4 = lane(p.hand[pd], s)
        max3 = dds_rank(h3)
        min3 = dds_low(h3)
        maxp = dds_rank(h4)
        minp = dds_low(h4)
        if t < 0:
            if maxp > lr and maxp > max3:
                return -rank
            if rank > lr and rank > max3:
                return 81 - rank
            if min3 > rank or minp > rank:
                return -3 + rr
            if rank < lr:
                return -11 + rr
            return 10 + rr if seq else 13 - rank
        win = 0
        if s == t:
            win = (maxp > lr and maxp > max3) or (rank > lr and rank > max3)
        elif rank > lr and rank > max3:
            if max3 or not lane(p.hand[nxt], t):
                win = 1
            elif maxp == 0 and lane(p.hand[pd], t) and lane(p.hand[pd], t) > lane(p.hand[nxt], t):
                win = 1
        elif maxp > lr and maxp > max3:
            win = max3 or not lane(p.hand[nxt], t)
        elif lr > maxp and lr > max3 and lr > rank:
            if maxp == 0 and lane(p.hand[pd], t):
                win = max3 or not lane(p.hand[nxt], t) or lane(p.hand[pd], t) > lane(p.hand[nxt], t)
        elif maxp == 0 and lane(p.hand[pd], t):
            win = 1
        if win:
            if min3 > rank:
                return 40 + rr
            if maxp > lr and mine > h4:
                return 41 + rr
            if rank > lr:
                if rank < maxp:
                    return 78 - rank
                if rank > max3:
                    return 73 - rank
                return 62 - rank if seq else 49 - rank
            return 47 - rank if maxp > 0 else 40 - rank
        if rank < min3 or rank < minp:
            return -9 + rr
        if rank < lr:
            return -16 + rr
        return 22 - rank if seq else 10 - rank
    if p.ntrick == 3:
        wc = p.trick_card[p.win_idx]
        if ((p.side >> ((p.leader + p.win_idx) & 3)) & 1) == ((p.side >> seat) & 1) \
                or (wc >> 4) != s:
            return -rank                    # partner wins, or the trick is ruffed
        return 30 - rank if rk > (wc & 15) else -rank
    # third hand
    h4 = lane(p.hand[nxt], s)
    max4 = dds_rank(h4)
    min4 = dds_low(h4)
    my_max = dds_rank(mine)
    wc = p.trick_card[p.win_idx]
    cur = (wc & 15) + 2
    if t >= 0 and s != t and (wc >> 4) == t:
        return -rank                        # second hand ruffed: we must follow
    if p.win_idx == 0 and (lr > max4 or (t >= 0 and s != t and max4 == 0)):
        return -rank                        # partner wins or fourth hand may ruff: low
    if t >= 0 and s != t and max4 == 0:
        return 20 - rank if rank > cur else -rank
    if my_max < min4 or my_max < cur:
        return -rank                        # our cards are too low to matter
    if rank > cur and rank > max4:
        return (58 if t >= 0 else 60) - rank
    if max4 > my_max and forces_top(p, mine, present, h4, cur - 2, p.win_idx == 1, rk):
        return 20 - rank
    return -rank


cdef inline int second_is_leaders(const Pos* p, int s) noexcept nogil:
    """Whether the second-highest card of suit ``s`` (the trick's cards counted) is
    the leader's, in hand or led."""
    cdef uint32_t x = lane(p.hand[0] | p.hand[1] | p.hand[2] | p.hand[3] | trick_mask(p), s)
    cdef int b
    if not x:
        return 0
    x &= ~(<uint32_t>1 << high_bit(<uint64_t>x))
    if not x:
        return 0
    b = high_bit(<uint64_t>x)
    return (lane(p.hand[p.leader], s) >> b) & 1 or p.trick_card[0] == 16 * s + b


cdef int ruff_weight(const Pos* p, const Rules* r, int seat, int card) noexcept nogil:
    """The weight of a discard or a ruff in a trump contract between two partnerships
    (after DDS's WeightAllocTrumpVoid1/2/3): ruff cheaply when the trick is not
    partner's, else discard low from a long suit, not from Kx."""
    cdef int s = card >> 4, rk = card & 15, t = r.trump, led = p.trick_card[0] >> 4
    cdef int rank = rk + 2, lr = (p.trick_card[0] & 15) + 2
    cdef uint64_t all4 = p.hand[0] | p.hand[1] | p.hand[2] | p.hand[3]
    cdef uint32_t x = lane(all4, s), mine = lane(p.hand[seat], s)
    cdef int cnt = __builtin_popcountll(<uint64_t>mine), kx = kx_holding(mine, x)
    cdef int nxt = (seat + 1) & 3, pd = (seat + 2) & 3
    cdef uint32_t h3, h4, t3, t4, lbit = <uint32_t>1 << (lr - 2)
    cdef int add, wc, max4
    if p.ntrick == 1:
        h3 = lane(p.hand[nxt], led)
        h4 = lane(p.hand[pd], led)
        t3 = lane(p.hand[nxt], t)
        t4 = lane(p.hand[pd], t)
        if led == t:
            if h4 > (h3 | lbit):
                return (cnt << 6) // 44 - rank
            return (cnt << 6) // 36 - (4 if kx else 0) - rank
        if s != t:
            if (h3 and (h4 > (h3 | lbit) or (not h4 and t4))) \
                    or (not h3 and ((not h4 and t4 > t3) or (not t3 and h4 > lbit))):
                return 60 + (cnt << 6) // 44 - rank
            return -2 + (cnt << 6) // 36 - (4 if kx else 0) - rank
        if h3 or (not h4 and t4 and t4 > t3):
            return 24 - rank + (cnt << 6) // 44
        if (<uint32_t>1 << rk) > t3:
            return 24 - rank + (cnt << 6) // 44
        return 15 - rank + (cnt << 6) // 36 - (4 if kx else 0)
    wc = p.trick_card[p.win_idx]
    if p.ntrick == 2:
        if led == t or s != t:
            return (cnt << 6) // 40 - rank
        h4 = lane(p.hand[nxt], led)
        max4 = dds_rank(h4)
        if p.win_idx == 0 and lr > max4 and (max4 or not lane(p.hand[nxt], t)):
            return -rank - 50               # don't ruff partner's sure winner
        add = (cnt << 6) // 50
        if (wc >> 4) == t and rk < (wc & 15):
            return -32 + rel_rank(x, rk) + (cnt << 6) // 40     # underruff
        if p.win_idx == 0:
            if max4:
                return (36 if second_is_leaders(p, led) else 48) - rank + add
            if (<uint32_t>1 << rk) > lane(p.hand[nxt], t):
                return 48 - rank + add
            return -12 - rank + add
        if max4:
            return 72 - rank + add
        if (<uint32_t>1 << rk) > lane(p.hand[nxt], t):
            return 48 - rank + add
        return 36 - rank + add
    # fourth hand
    add = (cnt << 6) // 24 - (2 if kx else 0)
    if led == t:
        return add - rank
    if ((p.side >> ((p.leader + p.win_idx) & 3)) & 1) == ((p.side >> seat) & 1):
        return (2 if s == t else 25) - rank + add
    if (wc >> 4) == t:
        if s == t:
            return (33 if rk > (wc & 15) else -13) + rel_rank(x, rk)
        return 14 - rank + add
    if s == t:
        return 33 + rel_rank(x, rk)
    return 14 - rank + add


cdef inline int joins_group(const Rules* r, uint32_t present, int s, int prev, int rk) noexcept nogil:
    """Whether the card of rank ``rk`` of suit ``s`` belongs to the group of equal
    cards of the same hand's card ``prev`` above it (the next card of the suit it
    may play): no card in play between them, and the same class."""
    return prev >= 0 and (present & ((<uint32_t>1 << prev) - (<uint32_t>1 << (rk + 1)))) == 0 \
        and r.card_class[16 * s + rk] == r.card_class[16 * s + prev]


cdef double helper_score(const Pos* p, const Rules* r, int seat, int lone, int card,
                         int32_t gets, int wseat) noexcept nogil:
    """The second thread's score of a move of one of the others against a lone seat
    (``Rules.helper_on``; higher first): weights ``Rules.helper_w`` of a few counts,
    fitted by ``benchmarks/helper_order.py`` to put first the others' cheapest
    refutation, which computes the same numbers (``features``).  ``gets``,
    ``wseat``: the guess at the trick's value to the seat and its winner
    (:func:`est_trick_neg`, as gen_moves has them).  Weights 2 + 14 b on describe a
    lead (b = 0), a follow (1) or a discard (2)."""
    cdef const double* w = r.helper_w
    cdef int s = card >> 4, rk = card & 15, b, i, h, played = 0
    cdef uint64_t ls = (p.hand[lone] >> (16 * s)) & SUIT_BITS
    cdef uint64_t xs = (p.hand[seat] >> (16 * s)) & SUIT_BITS
    cdef uint64_t ts = 0, tr = 0
    cdef uint64_t above = SUIT_BITS & ~((<uint64_t>2 << rk) - 1)
    cdef uint64_t below = ((<uint64_t>1) << rk) - 1
    cdef double sc
    for h in range(4):
        if h != lone:
            ts |= (p.hand[h] >> (16 * s)) & SUIT_BITS
    for i in range(p.ntrick):
        if (p.trick_card[i] >> 4) == s:
            tr |= (<uint64_t>1) << (p.trick_card[i] & 15)
        if ((p.leader + i) & 3) == lone:
            played = 1
    if p.ntrick == 0:
        b = 2
    elif (p.trick_card[0] >> 4) == s:
        b = 16
    else:
        b = 30
    sc = w[0] * (gets / 10.0) + (w[1] if wseat == lone else 0.0) + w[b]
    if ls:
        sc += w[b + 1]
    sc += w[b + 2] * (__builtin_popcountll(ls) / 13.0)
    sc += w[b + 3] * (__builtin_popcountll(ls & above) / 13.0)
    sc += w[b + 4] * (__builtin_popcountll(ls & below) / 13.0)
    sc += w[b + 5] * (__builtin_popcountll(ts & ~xs & below) / 13.0)
    sc += w[b + 6] * (__builtin_popcountll(xs) / 13.0)
    if (xs & below) == 0:
        sc += w[b + 7]
    if (xs & above) == 0:
        sc += w[b + 8]
    sc += w[b + 9] * (__builtin_popcountll((ts | ls | tr) & above) / 13.0)
    sc += w[b + 10] * (-r.card_points[card] / 6.0)
    if ts:
        sc += w[b + 11] * (__builtin_popcountll(ls & ((ts & (~ts + 1)) - 1)) / 13.0)
    else:
        sc += w[b + 11] * (__builtin_popcountll(ls) / 13.0)
    if played:
        sc += w[b + 12]
    sc += w[b + 13] * (p.tricks_left / 13.0)
    return sc


cdef int gen_moves(Ctx* c, int seat, int* moves, int* lows, int hint) noexcept nogil:
    """One card for each group of equivalent legal cards, best first.

    The order: the hint (the refutation memory's card, else the table's); then the
    points the trick brings the mover's side by a guess at its outcome; then (leads
    in contracts where tricks are worth winning) a preference between suits; then
    the history heuristic where tricks are worth winning (the lowest card first in
    classic Trumps), the highest card first where they cost (the others against a
    lone seat leading its suits first, the lone seat discarding its point cards, then
    its shortest suit first); then a rank tie-break."""
    cdef Pos* p = &c.p
    cdef const Rules* r = c.r
    cdef uint64_t legal = legal_mask(p, r, seat)
    cdef uint64_t present = p.hand[0] | p.hand[1] | p.hand[2] | p.hand[3] | trick_mask(p)
    cdef int n = 0, s, rk, prev, card, i, j, tmp, low, w_seat, tie_seat, tn, bonus, dlen
    cdef int top_seat = -1, top_rank = -1, rank2 = -1
    cdef int hold[3]
    cdef uint32_t L, P
    cdef int32_t v, gets
    cdef int64_t score
    cdef int64_t scores[MAX_MOVES]
    cdef int maxi = (p.side >> seat) & 1
    cdef int32_t sofar
    cdef int bridge = r.positive and not r.trump_duties and not r.king_duty and not r.heart_lead \
        and (p.side == 5 or p.side == 10)
    cdef int led_s = p.trick_card[0] >> 4 if p.ntrick > 0 else -1
    cdef int dw, use_dw, nt = r.trump < 0
    cdef int rank_w, suit_w, shed_points, lone = __builtin_ctzll(<uint64_t>p.side) if p.side and not (p.side & (p.side - 1)) else -1
    # the second thread's own order for the others against a lone seat (helper_score)
    cdef int use_helper = c.helper and r.helper_on and lone >= 0 and seat != lone and not r.positive
    # one group of equal cards only (following with a sequence, say): nothing to order
    if p.ntrick > 0 and (legal & ~SUIT_MASK[led_s]) == 0:
        L = <uint32_t>((legal >> (16 * led_s)) & SUIT_BITS)
        P = <uint32_t>((present >> (16 * led_s)) & SUIT_BITS)
        rk = high_bit(<uint64_t>L)
        low = __builtin_ctzll(<uint64_t>L)
        if (P & ((<uint32_t>2 << rk) - (<uint32_t>1 << low))) == L:
            card = 16 * led_s + low
            i = r.card_class[16 * led_s + rk]
            j = low
            while j < rk and r.card_class[16 * led_s + j] == i:
                j += 1
            if j == rk:
                moves[0] = 16 * led_s + rk
                lows[0] = card
                return 1
    tn = 14 - p.tricks_left
    sofar = r.trick_points[tn]
    for i in range(p.ntrick):
        sofar += r.card_points[p.trick_card[i]]
    for s in range(4):
        L = <uint32_t>((legal >> (16 * s)) & SUIT_BITS)
        if not L:
            continue
        P = <uint32_t>((present >> (16 * s)) & SUIT_BITS)
        bonus = 0
        dlen = -1
        if p.ntrick == 0:
            top_seat = lead_top(p, seat, s, &top_rank)
            if r.positive:
                rank2 = top_holders(p, s, hold)
                if r.trump >= 0:
                    bonus = lead_bonus(p, seat, hold)
        elif r.positive and r.trump < 0 and s != (p.trick_card[0] >> 4):
            dlen = discard_weight(p, seat, s)
        # where tricks cost, against a lone seat (see below): the suit's weight
        suit_w = 0
        shed_points = 0
        if not r.positive and lone >= 0:
            if p.ntrick == 0 and seat != lone and (p.hand[lone] & SUIT_MASK[s]):
                # the others lead the suits the lone seat holds first (where it
                # cannot discard): nodes of 20 ten-card endings, No Queens 25.3 M
                # -> 24.4 M, No Tricks 30.4 M -> 29.0 M
                suit_w = 16
            elif p.ntrick > 0 and seat == lone and s != led_s:
                # the lone seat discards its point cards first, then from its
                # shortest suit (20 ten-card endings: No Queens 24.4 M -> 19.0 M,
                # No Tricks 28.7 M -> 26.9 M nodes)
                suit_w = 16 * (14 - __builtin_popcountll(p.hand[seat] & SUIT_MASK[s]))
                shed_points = 1
        prev = -1
        while L:
            rk = high_bit(<uint64_t>L)
            L &= ~(<uint32_t>1 << rk)
            card = 16 * s + rk
            if joins_group(r, P, s, prev, rk):
                prev = rk
                lows[n - 1] = card
                continue
            prev = rk
            lows[n] = card
            # -- ordering score: the trick's value to the mover's side by a guess at
            # its winner (and, where tricks cost points, at the cards falling on it)
            if r.positive:
                v = sofar + r.card_points[card]
                if p.ntrick == 0:
                    w_seat = top_seat if top_rank > rk else seat
                else:
                    w_seat = est_winner(p, r, seat, card)
                tie_seat = w_seat
            else:
                w_seat = est_trick_neg(p, r, seat, card, &v)
                v += r.trick_points[tn]
                # for a lead the ducking guess gives the value only: as the tie-break
                # it made No Last Two twice as slow
                tie_seat = w_seat if p.ntrick > 0 else (top_seat if top_rank > rk else seat)
            gets = v if (p.side >> w_seat) & 1 else 0
            score = <int64_t>(gets if maxi else -gets) * (<int64_t>1 << 30)
            # between two partnerships, DDS's weights (the trick's value is in them)
            use_dw = 0
            if bridge:
                if p.ntrick == 0:
                    if not nt:
                        use_dw = 1
                        dw = trump_lead_weight(p, seat, card, r.trump, hold, rank2)
                elif s == led_s:
                    use_dw = 1
                    dw = follow_weight(p, r, seat, card)
                elif not nt:
                    use_dw = 1
                    dw = ruff_weight(p, r, seat, card)
            if use_dw:
                score = <int64_t>dw * (<int64_t>1 << 23)
            elif p.ntrick == 0 and r.positive and r.trump < 0:
                score = <int64_t>lead_weight_nt(p, seat, card, hold, rank2) * (<int64_t>1 << 23)
            else:
                score += <int64_t>bonus * (<int64_t>1 << 23)
                if dlen >= 0:
                    score += <int64_t>(dlen - rk) * (<int64_t>1 << 23)
            if r.use_hist:
                score += (c.hist[seat][card] if c.hist[seat][card] < 65535 else 65535) * 64
            elif r.positive:
                # classic Trumps (must trump and overtrump): the lowest card first
                # instead of the history heuristic (Trumps deals 0-7 3.07 M -> 2.15 M
                # nodes; bridge keeps DDS's weights and the history)
                score += <int64_t>(12 - rk) << 16
            else:
                # where tricks cost, every hand sheds its high cards first (the lone
                # seat gets rid of its winners, the others keep their low cards to
                # duck under it or to lead): far better here than the history
                # heuristic, which it replaces (benchmarks/nodes.py 14.3 M -> 7.2 M)
                rank_w = rk + suit_w
                if shed_points and r.card_points[card] < 0:
                    rank_w += 256
                score += <int64_t>rank_w << 22
            # tie-break: win cheaply when winning is worth it, else shed high cards
            if (v > 0) or (v == 0 and r.positive) or tie_seat == seat:
                score += 12 - rk
            else:
                score += rk
            if use_helper:
                score = <int64_t>(helper_score(p, r, seat, lone, card, gets, w_seat) * 16777216.0)
            if card == hint:
                score = <int64_t>1 << 60
            moves[n] = card
            scores[n] = score
            n += 1
    # insertion sort, best first (stable)
    for i in range(1, n):
        tmp = moves[i]
        low = lows[i]
        score = scores[i]
        j = i - 1
        while j >= 0 and scores[j] < score:
            moves[j + 1] = moves[j]
            lows[j + 1] = lows[j]
            scores[j + 1] = scores[j]
            j -= 1
        moves[j + 1] = tmp
        lows[j + 1] = low
        scores[j + 1] = score
    return n


# -- the search ----------------------------------------------------------------------

cdef inline uint16_t rel_of_card(const Pos* p, int card) noexcept nogil:
    """A card as 16 * suit + its index among the suit's cards left (low first)."""
    cdef uint64_t all4
    cdef int s
    if card < 0:
        return 0xFFFF
    s = card >> 4
    all4 = (p.hand[0] | p.hand[1] | p.hand[2] | p.hand[3]) >> (16 * s)
    return <uint16_t>(16 * s + __builtin_popcountll(all4 & ((<uint64_t>1 << (card & 15)) - 1)))


cdef inline int card_from_rel(const Pos* p, uint16_t rel) noexcept nogil:
    """The card of the position at a relative place (see rel_of_card)."""
    cdef int s = rel >> 4, k = rel & 15, b
    cdef uint64_t x = ((p.hand[0] | p.hand[1] | p.hand[2] | p.hand[3]) >> (16 * s)) & SUIT_BITS
    while x:
        b = __builtin_ctzll(x)
        if k == 0:
            return 16 * s + b
        k -= 1
        x &= x - 1
    return -1


cdef int32_t last_trick(Ctx* c, uint64_t* rel) noexcept nogil:
    """The last trick: every card is forced."""
    cdef Pos q
    cdef int i, seat
    cdef int32_t got = 0
    memcpy(&q, &c.p, sizeof(Pos))
    for i in range(q.ntrick, 4):
        seat = (q.leader + q.ntrick) & 3
        got = play_card(&q, c.r, seat, __builtin_ctzll(q.hand[seat]))
    rel[0] = q.trick_rel
    if c.r.ravage:
        return ravage_final(&q, c.r)
    return got


cdef inline int32_t play_card(Pos* p, const Rules* r, int seat, int card) noexcept nogil:
    """Play ``card`` for ``seat``; when it completes the trick, settle it and return
    the points the side scores (else 0)."""
    cdef int i, winner, cc
    cdef int32_t v, pt
    p.hand[seat] &= ~((<uint64_t>1) << card)
    p.trick_card[p.ntrick] = card
    if p.ntrick > 0 and beats(r, card, p.trick_card[p.win_idx]):
        p.win_idx = p.ntrick
    elif p.ntrick == 0:
        p.win_idx = 0
    p.ntrick += 1
    if p.ntrick < 4:
        return 0
    winner = (p.leader + p.win_idx) & 3
    cc = p.trick_card[p.win_idx]
    p.trick_rel = 0
    for i in range(4):
        if i != p.win_idx and (p.trick_card[i] >> 4) == (cc >> 4):
            p.trick_rel = (<uint64_t>1) << cc
    v = r.trick_points[14 - p.tricks_left]
    for i in range(4):
        cc = p.trick_card[i]
        pt = r.card_points[cc]
        v += pt
        if pt < 0:
            p.pts_neg -= pt
        else:
            p.pts_pos -= pt
        if r.ravage:
            p.won[winner][cc >> 4] += 1
    p.leader = winner
    p.ntrick = 0
    p.win_idx = 0
    p.tricks_left -= 1
    if (p.side >> winner) & 1:
        return v
    return 0


cdef void cash_runs(const Pos* p, const Rules* r, int P, int* run, int* top) noexcept nogil:
    """For each suit, how many tricks seat ``P``, on lead, wins in a row in it: its
    top cards of the suit (the cards of no other hand above them, ``top``), and
    then its small cards too when every other hand is void by then (no other hand
    holds more cards of the suit than ``P`` has top cards).  In a plain suit under
    trumps: no more rounds than the shortest holding of an opponent of ``P`` who
    has a trump (or of any other player with a trump, when trumping is
    compulsory: a team-mate must ruff too, and then the lead passes), and the
    small cards only when no such player has a trump."""
    cdef int s, o, b, k, ln, longest, ruff, team = (p.side >> P) & 1
    cdef uint64_t all4 = p.hand[0] | p.hand[1] | p.hand[2] | p.hand[3]
    cdef uint64_t mine = p.hand[P]
    cdef uint32_t x
    for s in range(4):
        run[s] = 0
        top[s] = 0
        if not (mine & SUIT_MASK[s]):
            continue
        x = <uint32_t>((all4 >> (16 * s)) & SUIT_BITS)
        k = 0
        while x:
            b = high_bit(<uint64_t>x)
            if not (mine >> (16 * s + b)) & 1:
                break
            k += 1
            x &= ~(<uint32_t>1 << b)
        if not k:
            continue
        top[s] = k
        ruff = 0
        longest = 0
        for o in range(4):
            if o == P:
                continue
            ln = __builtin_popcountll(p.hand[o] & SUIT_MASK[s])
            if ln > longest:
                longest = ln
            if r.trump >= 0 and s != r.trump and (((p.side >> o) & 1) != team or r.trump_duties) \
                    and (p.hand[o] & SUIT_MASK[r.trump]):
                ruff = 1
                if ln < k:
                    k = ln
        if not ruff and longest <= top[s]:
            # the others are void once the top cards are out: the rest are winners
            k = __builtin_popcountll(mine & SUIT_MASK[s])
        run[s] = k
        if top[s] > k:
            top[s] = k


cdef int take_runs(const Pos* p, int* run, const int* top, int need, int first,
                   uint64_t* cards) noexcept nogil:
    """Count the runs up to ``need`` tricks, suit ``first`` (if >= 0) first, then the
    longest runs; ``cards`` receives the top cards used (of a run longer than its
    top cards, the top cards only: the small cards win because the others are
    void, which the suit lengths say)."""
    cdef uint64_t all4 = p.hand[0] | p.hand[1] | p.hand[2] | p.hand[3], got = 0
    cdef uint32_t x
    cdef int q = 0, s, best, k, i, b, kt
    while q < need:
        best = first
        first = -1
        if best < 0:
            for s in range(4):
                if run[s] and (best < 0 or run[s] > run[best]):
                    best = s
            if best < 0:
                break
        k = run[best]
        if k > need - q:
            k = need - q
        run[best] = 0
        kt = k if k < top[best] else top[best]
        x = <uint32_t>((all4 >> (16 * best)) & SUIT_BITS)
        for i in range(kt):
            b = high_bit(<uint64_t>x)
            got |= (<uint64_t>1) << (16 * best + b)
            x &= ~(<uint32_t>1 << b)
        q += k
    cards[0] = got
    return q


cdef int team_cash(const Pos* p, const Rules* r, int need, uint64_t* cards) noexcept nogil:
    """When the other team holds no trumps: tricks (up to ``need``) the leader's team takes for sure by a
    line of winners and crossings.  The hand on lead leads a card above every
    opponent's card of its suit, or else a low card of a suit in which a team-mate
    holds such a card, which the team-mate plays and so takes the lead.  Each
    such trick is the team's whatever the opponents play, and their plays only
    remove cards, so the next trick's winners stay winners: the count holds against
    any defence.  Team-mates follow with their lowest card and discard cards that
    are not winners (the line stops when one would have to discard a winner).
    A team-mate void in a plain suit who must ruff (trumping duties) wins that
    trick for the team, and the line stops there.  ``cards`` receives the cards
    that won the other tricks (the answer depends on their being above the
    opponents' cards, nothing else)."""
    cdef uint64_t hand[4]
    cdef uint64_t opp = 0, got = 0, w, h, best_card
    cdef uint32_t os, hs
    cdef int team = (p.side >> p.leader) & 1, X = p.leader, q = 0, s, t, Y, o, card, win_seat, win_card
    cdef int lead_suit, lead_card, c2, ok, ruffed
    cdef int omax[4]
    cdef int olen[3][4]
    cdef int otop[3][4]
    cdef int no = 0, i, mates
    for o in range(4):
        hand[o] = p.hand[o]
        if ((p.side >> o) & 1) != team:
            opp |= p.hand[o]
            hand[o] = 0
            for s in range(4):
                os = <uint32_t>((p.hand[o] >> (16 * s)) & SUIT_BITS)
                olen[no][s] = __builtin_popcountll(<uint64_t>os)
                otop[no][s] = high_bit(<uint64_t>os) if os else -1
            no += 1
    if r.trump >= 0 and (opp & SUIT_MASK[r.trump]):
        cards[0] = 0
        return 0
    for s in range(4):
        os = <uint32_t>((opp >> (16 * s)) & SUIT_BITS)
        omax[s] = high_bit(<uint64_t>os) if os else -1
    if need > p.tricks_left:
        need = p.tricks_left
    while q < need:
        # the lead: a winner of the hand on lead, else a low card to a team-mate's winner
        lead_suit = -1
        lead_card = -1
        for s in range(4):
            hs = <uint32_t>((hand[X] >> (16 * s)) & SUIT_BITS)
            if hs and high_bit(<uint64_t>hs) > omax[s]:
                lead_suit = s
                lead_card = 16 * s + high_bit(<uint64_t>hs)
                break
        if lead_suit < 0:
            for s in range(4):
                hs = <uint32_t>((hand[X] >> (16 * s)) & SUIT_BITS)
                if not hs:
                    continue
                for Y in range(4):
                    if Y != X and ((hand[Y] >> (16 * s)) & SUIT_BITS) and \
                            high_bit((hand[Y] >> (16 * s)) & SUIT_BITS) > omax[s]:
                        lead_suit = s
                        lead_card = 16 * s + __builtin_ctzll(<uint64_t>hs)
                        break
                if lead_suit >= 0:
                    break
        if lead_suit < 0:
            break
        s = lead_suit
        hand[X] &= ~((<uint64_t>1) << lead_card)
        win_seat = X
        win_card = lead_card
        ok = 1
        ruffed = 0
        mates = 0
        for t in range(1, 4):
            Y = (X + t) & 3
            if ((p.side >> Y) & 1) != team or not hand[Y]:
                continue
            hs = <uint32_t>((hand[Y] >> (16 * s)) & SUIT_BITS)
            if hs:
                mates = 1
                if (win_card & 15) <= omax[s] and high_bit(<uint64_t>hs) > omax[s]:
                    c2 = 16 * s + high_bit(<uint64_t>hs)     # the crossing winner
                else:
                    c2 = 16 * s + __builtin_ctzll(<uint64_t>hs)
                if (c2 & 15) > (win_card & 15):
                    win_card = c2
                    win_seat = Y
            elif r.trump_duties and (hand[Y] & SUIT_MASK[r.trump]):
                # must ruff: the trick is the team's (the others have no trumps)
                ruffed = 1
                c2 = __builtin_ctzll(hand[Y] & SUIT_MASK[r.trump])
            else:
                # discard a card that is not a winner, if there is one
                c2 = -1
                for o in range(4):
                    hs = <uint32_t>((hand[Y] >> (16 * o)) & SUIT_BITS)
                    if hs and __builtin_ctzll(<uint64_t>hs) <= omax[o]:
                        c2 = 16 * o + __builtin_ctzll(<uint64_t>hs)
                        break
                if c2 < 0:
                    ok = 0
                    c2 = __builtin_ctzll(hand[Y])
            hand[Y] &= ~((<uint64_t>1) << c2)
        if ruffed:
            q += 1
            break
        if (win_card & 15) <= omax[s]:
            break
        q += 1
        if omax[s] >= 0 or mates:
            # (a trick nobody else could follow is won whatever the card's rank)
            got |= (<uint64_t>1) << win_card
        # the opponents followed if they could: one holding no more cards of the
        # suit than the rounds led is void now, and its cards no longer count (one
        # that still may hold some keeps its highest card, whatever it played)
        omax[s] = -1
        for i in range(no):
            if olen[i][s] > 0:
                olen[i][s] -= 1
            if olen[i][s] > 0 and otop[i][s] > omax[s]:
                omax[s] = otop[i][s]
        X = win_seat
        if not ok:
            break
    cards[0] = got
    return q


cdef enum:
    QT_UNSAFE = 99        # a round threshold no card beats (an opponent could ruff)


cdef int suit_line(uint32_t u, uint32_t k, const int* th, int s, int u_seat, int k_seat,
                   int* t_end, int* line_end, uint64_t* rel, int line) noexcept nogil:
    """One line of play in suit ``s`` for a partnership whose hands hold ``u`` and ``k``
    (13-bit masks), the opponents' threshold of round i being ``th[i]`` (see
    :func:`plan_tricks`).  Hand U plays its cards from the top down (unblocking); hand
    K follows with its lowest card while U's card wins the round, else with its lowest
    card that wins it, and with its lowest card above U's last one when it then has
    cards left (so that it keeps the lead for its long cards); alone, each hand plays
    from the top down.  A round is the team's when the higher of its two cards beats
    the threshold; the line stops after a round whose winner, who must lead the
    next one, is out of the suit.  ``rel[line * 14 + n]`` receives the cards the first ``n`` rounds
    depend on, and for each seat X of the two, ``t_end[X]`` the most rounds won in a
    row that leave X on lead (``line_end[X]`` = ``line``) when that beats the value
    already there.  Returns the rounds won in a row."""
    cdef int i = 0, cu, ck, w, need, nu, nk, owner
    cdef uint64_t acc = 0
    rel[line * 14] = 0
    while u or k:
        cu = -1
        ck = -1
        nu = __builtin_popcountll(<uint64_t>u)
        nk = __builtin_popcountll(<uint64_t>k)
        if u:
            cu = high_bit(<uint64_t>u)
        if k:
            if not u:
                ck = high_bit(<uint64_t>k)
            else:
                need = -2
                if nu == 1 and nk > 1:
                    need = cu if cu > th[i] else th[i]
                elif cu <= th[i]:
                    need = th[i]
                if need == -1 or (0 <= need < 13 and (k & ABOVE[need])):
                    ck = __builtin_ctzll(<uint64_t>(k & ABOVE[need] if need >= 0 else k))
                else:
                    ck = __builtin_ctzll(<uint64_t>k)
        if cu > ck:
            w = cu
            owner = u_seat
        else:
            w = ck
            owner = k_seat
        if w <= th[i]:
            break
        if cu >= 0:
            u &= ~(<uint32_t>1 << cu)
        if ck >= 0:
            k &= ~(<uint32_t>1 << ck)
        if th[i] >= 0 or (cu >= 0 and ck >= 0):
            acc |= (<uint64_t>1) << (16 * s + w)
        i += 1
        rel[line * 14 + i] = acc
        if i > t_end[owner]:
            t_end[owner] = i
            line_end[owner] = line
        if not (u if owner == u_seat else k):
            break     # the winner, on lead, is out of the suit
    return i


cdef int plan_tricks(const Pos* p, const Rules* r, int need, uint64_t* cards) noexcept nogil:
    """Tricks (up to ``need``) the leader's partnership takes for sure by cashing its
    suits one after another, each suit from either hand (two partnerships, no
    duties).

    Why it holds against any defence.  In a suit the opponents follow while they can
    and keep their highest cards: in round i of the suit the team's higher card wins
    when it beats ``th[i]``, the highest card of an opponent holding more than i
    cards of it.  Their discards only take cards away, so the thresholds never
    rise.  Under trumps, a round of a plain suit in which an opponent holding a
    trump may be out of the suit is unsafe (no card wins it), until a trump suit
    line of as many rounds as the opponents' longest trump holding has drawn their
    trumps (they follow to each round while they hold trumps); after it the plain
    suits are counted again without that danger.  Which of the team's hands leads
    a round makes no difference to the cards the two may play in it, so a suit's
    line (:func:`suit_line`) can start from either hand that holds the suit; it
    matters only which hand wins the last round counted, the next suit's leader.
    A hand out of the suit led discards a card that no later round of the plan
    needs: the plan stops at ``need`` rounds and a hand holds a card for every
    trick left, so there always is one (a hand with trumps, in a trump contract,
    must find a card that is not a trump, else its trump would take the trick and
    the lead: checked by counting its spare cards).  ``cards`` receives the
    winning cards of the rounds counted (of a round only one hand plays into
    opponents out of the suit, none: the lengths decide it): a position that
    agrees on them and on the cards above them (all those of the suit's top, hence
    every opponent's card above a winner) and on the suit lengths (who holds
    trumps, who can follow) allows the same plan."""
    cdef int L = p.leader, M = (p.leader + 2) & 3, s, i, o, h, b, m, mask, best, v, q, j, g
    cdef int d, nd, phases, mtr = 0, tr = r.trump, free_m, spare_m
    cdef int th[14]
    cdef int t_end[2][4][4]     # by phase, suit and seat: the most rounds that leave it on lead
    cdef int line_end[2][4][4]
    cdef int t_any[2][4]
    cdef int line_any[2][4]
    cdef uint64_t rel[2][4][28]
    cdef int f[2][16][4]        # f[phase][used suits][seat on lead]: the most rounds from there
    cdef int choice[2][16][4]   # 4 * suit + (0: end at L, 1: end at M, 3: the last segment)
    cdef int rounds[4]
    cdef uint64_t got = 0
    cdef uint32_t os
    cards[0] = 0
    if (p.side != 5 and p.side != 10) or r.heart_lead or r.king_duty or r.trump_duties:
        return 0
    if need > p.tricks_left:
        need = p.tricks_left
    if tr >= 0:
        for o in range(4):
            if (o & 1) != (L & 1):
                m = __builtin_popcountll(p.hand[o] & SUIT_MASK[tr])
                if m > mtr:
                    mtr = m
    # phase 0: as things are; phase 1: once the opponents' trumps are drawn
    phases = 2 if mtr else 1
    for d in range(phases):
        for s in range(4):
            t_any[d][s] = 0
            for h in range(4):
                t_end[d][s][h] = 0
                line_end[d][s][h] = 0
            if not ((p.hand[L] | p.hand[M]) & SUIT_MASK[s]):
                continue
            for i in range(14):
                th[i] = -1
            for o in range(4):
                if (o & 1) == (L & 1):
                    continue
                os = <uint32_t>((p.hand[o] >> (16 * s)) & SUIT_BITS)
                m = __builtin_popcountll(<uint64_t>os)
                if os:
                    b = high_bit(<uint64_t>os)
                    for i in range(m):
                        if b > th[i]:
                            th[i] = b
                if d == 0 and tr >= 0 and s != tr and (p.hand[o] & SUIT_MASK[tr]):
                    for i in range(m, 14):
                        th[i] = QT_UNSAFE
            suit_line(<uint32_t>((p.hand[L] >> (16 * s)) & SUIT_BITS),
                      <uint32_t>((p.hand[M] >> (16 * s)) & SUIT_BITS), th, s, L, M,
                      t_end[d][s], line_end[d][s], rel[d][s], 0)
            suit_line(<uint32_t>((p.hand[M] >> (16 * s)) & SUIT_BITS),
                      <uint32_t>((p.hand[L] >> (16 * s)) & SUIT_BITS), th, s, M, L,
                      t_end[d][s], line_end[d][s], rel[d][s], 1)
            if t_end[d][s][L] >= t_end[d][s][M]:
                t_any[d][s] = t_end[d][s][L]
                line_any[d][s] = line_end[d][s][L]
            else:
                t_any[d][s] = t_end[d][s][M]
                line_any[d][s] = line_end[d][s][M]
    # the best order of the suits: f over the sets of suits used, largest first
    for mask in range(15, -1, -1):
        for d in range(phases):
            for j in range(2):
                h = M if j else L
                best = 0
                choice[d][mask][h] = -1
                for s in range(4):
                    if (mask >> s) & 1 or not t_any[d][s] or not (p.hand[h] & SUIT_MASK[s]):
                        continue
                    if t_any[d][s] > best:
                        best = t_any[d][s]
                        choice[d][mask][h] = 4 * s + 3
                    for g in range(2):
                        o = M if g else L
                        v = t_end[d][s][o]
                        if v:
                            nd = 1 if d or (phases == 2 and s == tr and v >= mtr) else 0
                            v += f[nd][mask | (1 << s)][o]
                            if v > best:
                                best = v
                                choice[d][mask][h] = 4 * s + g
                f[d][mask][h] = best
    if f[0][0][L] < need:
        return 0
    # follow the plan for ``need`` rounds, collecting the winning cards
    for s in range(4):
        rounds[s] = 0
    mask = 0
    h = L
    d = 0
    q = 0
    while q < need:
        i = choice[d][mask][h]
        s = i >> 2
        if (i & 3) == 3:
            v = t_any[d][s]
            b = line_any[d][s]
            o = h
        else:
            o = M if (i & 3) else L
            v = t_end[d][s][o]
            b = line_end[d][s][o]
        nd = 1 if d or (phases == 2 and s == tr and v >= mtr) else 0
        if v > need - q:
            v = need - q
        got |= rel[d][s][14 * b + v]
        rounds[s] = v
        q += v
        mask |= 1 << s
        h = o
        d = nd
    if tr >= 0:
        # a hand holding trumps must discard cards that are not trumps
        for j in range(2):
            h = M if j else L
            if not (p.hand[h] & SUIT_MASK[tr]):
                continue
            free_m = 0
            spare_m = 0
            for s in range(4):
                m = __builtin_popcountll(p.hand[h] & SUIT_MASK[s])
                if rounds[s] > m:
                    free_m += rounds[s] - m
                elif s != tr:
                    spare_m += m - rounds[s]
            if free_m > spare_m:
                return 0
    cards[0] = got
    return need


cdef inline int spare_discard(const Pos* p, int seat, int tr) noexcept nogil:
    """The card a hand out of the suit led discards when it must not trump (its
    lowest card outside the trump suit, -1 if it holds only trumps)."""
    cdef uint64_t h = p.hand[seat] & ~SUIT_MASK[tr]
    cdef int s, best = -1
    for s in range(4):
        if h & SUIT_MASK[s] and (best < 0 or __builtin_ctzll(h & SUIT_MASK[s]) - 16 * s < (best & 15)):
            best = __builtin_ctzll(h & SUIT_MASK[s])
    return best


cdef int second_hand_tricks(const Pos* p, const Rules* r, int need, uint64_t* cards) noexcept nogil:
    """At the second card of a trick: tricks (up to ``need``, this one included) the
    team of the hand to play takes for sure (DDS's QuickTricksSecondHand), with two
    partnerships and no duties.

    The team wins this trick when one of its hands holds a card of the suit led
    above the card led and above every card of the third hand (the hand to play
    now plays its top card, or the fourth hand, playing last, its lowest such
    card), or, under trumps, when a hand out of a plain suit led ruffs with its
    lowest trump, provided the third hand cannot ruff (it holds the suit or no
    trump).  The other hand follows with its lowest card (below the winner) or
    discards.  The winner then leads, and :func:`plan_tricks` counts the rest on
    the position after the trick in which the third hand has played its lowest
    card of the suit (or kept all its cards, if out of the suit: it then holds no
    trump that matters): whatever card it plays leaves the same lengths and no
    higher cards, or, discarding without trumps, only lowers the opponents'
    thresholds, so the plan holds.  Without trumps in play a team-mate out of the
    suit keeps its cards: it holds one card more than the plan needs (the plan
    spends at most the tricks left after this one), a spare card to discard now;
    with trumps in play it discards its lowest card that is not a trump (none: no
    count), which the plan then does without.  ``cards``: the winning card (every
    card above it, the third hand's and the led card among them, then agree) and
    the plan's cards."""
    cdef int seat = (p.leader + 1) & 3, third = (p.leader + 2) & 3, mate = (p.leader + 3) & 3
    cdef int led = p.trick_card[0], s = p.trick_card[0] >> 4, top, w, lo, k, hh, other
    cdef int tr = r.trump, trumps = 0
    cdef uint32_t a, b, t
    cdef uint64_t all4 = p.hand[0] | p.hand[1] | p.hand[2] | p.hand[3], c2
    cdef Pos q
    cards[0] = 0
    if (p.side != 5 and p.side != 10) or r.heart_lead or r.king_duty or r.trump_duties \
            or need > p.tricks_left:
        return 0
    if tr >= 0 and (all4 & SUIT_MASK[tr]):
        trumps = 1
    top = led & 15
    t = <uint32_t>((p.hand[third] >> (16 * s)) & SUIT_BITS)
    if t and high_bit(<uint64_t>t) > top:
        top = high_bit(<uint64_t>t)
    if trumps and s != tr and not t and (p.hand[third] & SUIT_MASK[tr]):
        return 0            # the third hand may ruff
    a = <uint32_t>((p.hand[seat] >> (16 * s)) & SUIT_BITS)
    b = <uint32_t>((p.hand[mate] >> (16 * s)) & SUIT_BITS)
    for k in range(4):
        # k = 0: the hand to play wins with its top card; k = 1: the fourth hand;
        # k = 2, 3: the hand to play, the fourth hand ruffs a plain suit
        if k == 0:
            if not a or high_bit(<uint64_t>a) <= top:
                continue
            hh = seat
            other = mate
            w = 16 * s + high_bit(<uint64_t>a)
        elif k == 1:
            if not (b & ABOVE[top]):
                continue
            hh = mate
            other = seat
            w = 16 * s + __builtin_ctzll(<uint64_t>(b & ABOVE[top]))
        else:
            hh = seat if k == 2 else mate
            other = mate if k == 2 else seat
            if not trumps or s == tr or ((p.hand[hh] >> (16 * s)) & SUIT_BITS) \
                    or not (p.hand[hh] & SUIT_MASK[tr]):
                continue
            w = __builtin_ctzll(p.hand[hh] & SUIT_MASK[tr])
        if p.hand[other] & SUIT_MASK[s]:
            lo = __builtin_ctzll(p.hand[other] & SUIT_MASK[s])
            if (lo >> 4) == (w >> 4) and lo > w:
                continue        # the other hand's card would take the trick instead
        elif trumps and (p.hand[other] & SUIT_MASK[tr]):
            lo = spare_discard(p, other, tr)
            if lo < 0:
                continue
        else:
            lo = -1
        if need <= 1:
            cards[0] = (<uint64_t>1) << w
            return 1
        memcpy(&q, p, sizeof(Pos))
        q.hand[hh] &= ~((<uint64_t>1) << w)
        if lo >= 0:
            q.hand[other] &= ~((<uint64_t>1) << lo)
        if t:
            q.hand[third] &= ~((<uint64_t>1) << (16 * s + __builtin_ctzll(<uint64_t>t)))
        q.leader = hh
        q.ntrick = 0
        q.tricks_left = p.tricks_left - 1
        if plan_tricks(&q, r, need - 1, &c2) >= need - 1:
            cards[0] = c2 | ((<uint64_t>1) << w)
            return need
    return 0


cdef int quick_tricks(const Pos* p, const Rules* r, int need, uint64_t* cards) noexcept nogil:
    """Tricks (up to ``need``) the leader's team wins for sure by cashing top cards.

    Either the leader cashes its own runs (:func:`cash_runs`), or it leads a suit
    in which a team-mate holds the top card, and the team-mate, then on lead,
    cashes its runs (the entry suit first).  Only as many tricks as ``need`` are
    counted, from the longest runs first, and ``cards`` receives just the top cards
    they use: the fewer cards an answer depends on, the more positions its table
    entry serves."""
    cdef int L = p.leader, P, s, e, q, team = (p.side >> p.leader) & 1
    cdef int run[4]
    cdef int top[4]
    if need > p.tricks_left:
        need = p.tricks_left
    cash_runs(p, r, L, run, top)
    q = take_runs(p, run, top, need, -1, cards)
    if q >= need:
        return q
    for P in range(4):
        if P == L or ((p.side >> P) & 1) != team:
            continue
        cash_runs(p, r, P, run, top)
        e = -1
        for s in range(4):
            if run[s] and (p.hand[L] & SUIT_MASK[s]) and (e < 0 or run[s] > run[e]):
                e = s
        if e >= 0 and take_runs(p, run, top, need, e, cards) >= need:
            return need
    # (plan_tricks here too: 7% fewer bridge tricks searched but 1.6x the time; it
    # serves the second-hand rule only)
    if team_cash(p, r, need, cards) >= need:
        return need
    return 0


cdef int trump_tricks(const Pos* p, const Rules* r, int team, uint64_t* cards) noexcept nogil:
    """Tricks ``team`` (a side bit) wins for sure with trumps, whoever leads.

    The highest trump wins the trick it falls in, whenever it falls; so does each
    trump of the hand holding it down to the first trump of another hand (every
    other hand's trumps are below them), and the trumps fall in different tricks.
    When the other team holds no trumps, every trick in which the team's longest
    trump holding plays a trump is the team's: as many tricks as that length.
    Both hold under any duty to ruff or overruff.  ``cards``: the top trumps
    counted (the second count needs the suit lengths only)."""
    cdef uint64_t all4 = p.hand[0] | p.hand[1] | p.hand[2] | p.hand[3], got = 0
    cdef uint32_t x
    cdef int T = r.trump, A = -1, o, b, k = 0, ln, longest = 0, others = 0
    cards[0] = 0
    if T < 0:
        return 0
    x = <uint32_t>((all4 >> (16 * T)) & SUIT_BITS)
    if not x:
        return 0
    b = high_bit(<uint64_t>x)
    for o in range(4):
        if (p.hand[o] >> (16 * T + b)) & 1:
            A = o
        ln = __builtin_popcountll(p.hand[o] & SUIT_MASK[T])
        if ((p.side >> o) & 1) == team:
            if ln > longest:
                longest = ln
        elif ln:
            others = 1
    if ((p.side >> A) & 1) != team:
        if (p.side == 5 or p.side == 10) and not r.trump_duties:
            return guarded_second(p, T, A, x, cards)
        return 0
    if not others:
        return longest
    while x:
        b = high_bit(<uint64_t>x)
        if not (p.hand[A] >> (16 * T + b)) & 1:
            break
        got |= (<uint64_t>1) << (16 * T + b)
        x &= ~(<uint32_t>1 << b)
        k += 1
    if k == 1 and x and (p.side == 5 or p.side == 10) and not r.trump_duties:
        # the second trump with the partner: both win unless both hands are
        # singletons (a trump lead then fells them together)
        b = high_bit(<uint64_t>x)
        if (p.hand[(A + 2) & 3] >> (16 * T + b)) & 1 and \
                (__builtin_popcountll(p.hand[A] & SUIT_MASK[T]) > 1
                 or __builtin_popcountll(p.hand[(A + 2) & 3] & SUIT_MASK[T]) > 1):
            got |= (<uint64_t>1) << (16 * T + b)
            k = 2
    cards[0] = got
    return k


cdef int guarded_second(const Pos* p, int T, int A, uint32_t x, uint64_t* cards) noexcept nogil:
    """Between two partnerships with no duty to overruff, a trick for the team
    opposite the highest trump's holder ``A`` (after DDS's LaterTricks): its second
    and third trumps, the second guarded (the top trump takes one of them at most).
    (DDS's other rule, a guarded second trump in the hand just after A, is not
    sure: the side with the top trump may draw the guard first; it failed on
    DDS's own answers.)  ``x``: the trumps left; ``cards``: the top trumps used."""
    cdef uint64_t got = (<uint64_t>1) << (16 * T + high_bit(<uint64_t>x))
    cdef int b, h2 = -1, h3 = -1, o
    x &= ~(<uint32_t>1 << high_bit(<uint64_t>x))
    if not x:
        return 0
    b = high_bit(<uint64_t>x)
    got |= (<uint64_t>1) << (16 * T + b)
    for o in range(4):
        if (p.hand[o] >> (16 * T + b)) & 1:
            h2 = o
    if ((p.side >> h2) & 1) == ((p.side >> A) & 1) or __builtin_popcountll(p.hand[h2] & SUIT_MASK[T]) < 2:
        return 0
    x &= ~(<uint32_t>1 << b)
    if not x:
        return 0
    b = high_bit(<uint64_t>x)
    got |= (<uint64_t>1) << (16 * T + b)
    for o in range(4):
        if (p.hand[o] >> (16 * T + b)) & 1:
            h3 = o
    if ((p.side >> h3) & 1) != ((p.side >> h2) & 1):
        return 0
    cards[0] = got
    return 1


cdef int all_tricks_bound(const Pos* p, const Rules* r, int team, uint64_t* cards) noexcept nogil:
    """Whether ``team`` (a side bit: 1 for the maximising side) can NOT win every
    trick left, from a trick start (DDS's LaterTricks), when the sides are two
    partnerships.

    Without trumps in play: a team wins at most ``max(len)`` tricks led in a suit
    (each round takes a card from both its hands), and, taking every trick, it
    leads every trick after the first and never lets the other team's top card of
    a suit win: tricks in a suit whose top card the others hold come only after
    that card is discarded, and a hand that must discard keeps its top cards while
    it can.  So when the suits whose top card the team holds carry fewer rounds
    than the tricks left, the other team wins a trick (DDS relies on the same
    count; it was checked on 60,000 random endings against DDS's own solutions).
    Nor can it when the team is on lead and the other team heads every suit its
    leader holds: the holder of the top card of the suit led plays it and wins.
    ``cards`` receives the top cards of the suits the other team heads: in a
    position where they head at least the same suits, the count is no larger.

    With trumps in play: the top trump wins the trick it is played to, and every
    card is played by the end, so a team without it cannot take every trick
    (``cards``: that trump).  Nor can it when the other team holds the second
    trump with another trump, the top trump sitting right before it, and that
    holder is not on lead (no duty to overtrump): the top trump is then played
    before the second in every trick until the holder wins one, and the holder
    must play a trump in at least two tricks (it has fewer other cards than
    tricks left less one).  In the first, it plays the second trump and wins if
    the top trump has not appeared; else another trump, and the second is then
    the top trump (``cards``: the top two trumps).  (On lead, the holder of,
    say, T8 against A6 may have to lead a trump and lose both.)"""
    cdef uint64_t all4 = p.hand[0] | p.hand[1] | p.hand[2] | p.hand[3]
    cdef uint64_t got = 0
    cdef uint32_t x
    cdef int s, o, b, h, ln, m, sum = 0, holders, lead_ok = 0
    cards[0] = 0
    if (p.side != 5 and p.side != 10) or r.heart_lead or r.king_duty:
        return 0
    if r.trump >= 0 and (all4 & SUIT_MASK[r.trump]):
        x = <uint32_t>((all4 >> (16 * r.trump)) & SUIT_BITS)
        b = high_bit(<uint64_t>x)
        for o in range(4):
            if (p.hand[o] >> (16 * r.trump + b)) & 1:
                h = o
        if ((p.side >> h) & 1) != team:
            cards[0] = (<uint64_t>1) << (16 * r.trump + b)
            return 1
        x &= ~(<uint32_t>1 << b)
        if not x or r.trump_duties:
            return 0
        m = h
        b = high_bit(<uint64_t>x)
        for o in range(4):
            if (p.hand[o] >> (16 * r.trump + b)) & 1:
                h = o
        if ((p.side >> h) & 1) != team and m == ((h + 3) & 3) and p.leader != h \
                and __builtin_popcountll(p.hand[h] & SUIT_MASK[r.trump]) > 1:
            cards[0] = (<uint64_t>(((all4 >> (16 * r.trump)) & SUIT_BITS) & ~((<uint32_t>1 << b) - 1))) \
                << (16 * r.trump)
            return 1
        return 0
    for s in range(4):
        x = <uint32_t>((all4 >> (16 * s)) & SUIT_BITS)
        if not x:
            continue
        b = high_bit(<uint64_t>x)
        h = -1
        holders = 0
        for o in range(4):
            if p.hand[o] & SUIT_MASK[s]:
                holders += 1
            if (p.hand[o] >> (16 * s + b)) & 1:
                h = o
        if ((p.side >> h) & 1) == team:
            m = 0
            for o in range(4):
                if ((p.side >> o) & 1) == team:
                    ln = __builtin_popcountll(p.hand[o] & SUIT_MASK[s])
                    if ln > m:
                        m = ln
            sum += m
            if p.hand[p.leader] & SUIT_MASK[s]:
                lead_ok = 1
        elif holders > 1:
            got |= (<uint64_t>1) << (16 * s + b)
    cards[0] = got
    return sum < p.tricks_left or (((p.side >> p.leader) & 1) == team and not lead_ok)


cdef uint32_t NO_TMAX = <uint32_t>0x0F0F0F0F   # null_safe: pair up to the shorter count


cdef inline uint32_t longest_others(const Pos* p, int seat) noexcept nogil:
    """For each suit (a byte each), the longest holding of it among the hands other
    than ``seat``: how many more tricks of the suit the others can lead."""
    cdef uint32_t t = 0
    cdef int s, h, n, m
    for s in range(4):
        m = 0
        for h in range(4):
            if h != seat:
                n = __builtin_popcountll(p.hand[h] & SUIT_MASK[s])
                if n > m:
                    m = n
        t |= (<uint32_t>m) << (8 * s)
    return t


cdef inline int suit_pairs(uint32_t m, uint32_t o, int t, uint32_t* seen) noexcept nogil:
    """:func:`null_safe`'s test in one suit: the seat's cards ``m`` against the others'
    ``o`` (13-bit masks), paired up to ``t`` cards at most; ``seen``: the cards read."""
    cdef uint32_t x, b
    cdef int cn, co, need
    seen[0] = 0
    if not m or not o:
        return 1
    cn = __builtin_popcountll(<uint64_t>m)
    co = __builtin_popcountll(<uint64_t>o)
    need = cn if cn < co else co
    if need > t:
        need = t
    x = m | o
    cn = 0
    co = 0
    while cn < need:
        b = x & (~x + 1)
        x ^= b
        seen[0] |= b
        if m & b:
            if co > cn:
                return 0
            cn += 1
        else:
            co += 1
    return 1


cdef int null_safe(uint64_t mine, uint64_t others, uint32_t tmax, uint64_t* rel) noexcept nogil:
    """Whether a lone seat holding ``mine``, not on lead at a trick's start in a
    contract without trumps, can avoid winning any trick from here, the other hands
    holding ``others`` (a sufficient test).

    Suit by suit: with the seat's cards of the suit ascending n1 < n2 < ... and the
    others' cards together ascending o1 < o2 < ..., ni < oi for every i up to k, the
    least of the seat's count, the others' count and ``tmax``'s byte for the suit (the
    others' longest holding of it, :func:`longest_others`; or more).  Each of the
    others holding the suit follows to every trick of it, so they lead at most that
    many tricks of it.  Whoever of the others leads, and whatever they play, the seat
    answers a lead with its highest card nj below the card led ol (n1 < o1 <= ol).  Its
    cards above nj lie above ol, so for i >= j, ni+1 > ol and ni+1 < oi+1 put ol among
    o1..oi, and the others' i-th card after the trick is at least oi+1 > ni+1: the test
    holds after the trick with k one less, as it must (the longest holding is a card
    shorter).  When void the seat discards its highest card of any suit, and the test
    still holds; it never leads again.  Fewer cards among the others only help the
    seat.  ``rel``: the cards the test read (the bottom of each suit up to the seat's
    last card checked); the lengths are in the table's key."""
    cdef uint64_t got = 0
    cdef uint32_t seen
    cdef int s
    rel[0] = 0
    for s in range(4):
        if not suit_pairs(lane(mine, s), lane(others, s), <int>((tmax >> (8 * s)) & 0xFF), &seen):
            return 0
        got |= (<uint64_t>seen) << (16 * s)
    rel[0] = got
    return 1


cdef int safe_lead(const Pos* p, const Rules* r, int seat, uint64_t others, uint32_t tl,
                   uint64_t* rel) noexcept nogil:
    """Whether the lone seat, on lead, has a suit Y it may lead whose lowest card lies
    below all the others' cards of Y (one of the others who must follow wins the
    trick) and after which :func:`null_safe`'s test still holds in Y whatever the
    others play: the seat's cards of Y but the lowest against the others' but the
    highest (each of them holding Y loses a card of it, so that their longest holding
    is a card shorter; the worst case keeps their lowest).  ``rel``: the cards that
    test read and the lowest card of Y."""
    cdef uint64_t mine = p.hand[seat], m, o, top
    cdef int s
    for s in range(4):
        if r.heart_lead and s == 1 and (mine & ~SUIT_MASK[1]):
            continue
        m = mine & SUIT_MASK[s]
        o = others & SUIT_MASK[s]
        if not m or not o or (m & (~m + 1)) > (o & (~o + 1)):
            continue
        top = (<uint64_t>1) << high_bit(o)
        # after the trick each of the others holding Y has one card of it fewer
        if null_safe(m & (m - 1), o & ~top,
                     tl - ((<uint32_t>1) << (8 * s)), rel):
            rel[0] |= m & (~m + 1)
            return 1
    return 0


cdef inline int points_holder(const Pos* p, const Rules* r, int seat, uint64_t in_play,
                              uint64_t* pts) noexcept nogil:
    """The hand other than ``seat`` that holds the one card with points left
    (``pts`` receives it), or -1: no such card, or the seat's."""
    cdef int i
    pts[0] = r.point_cards & in_play
    if not pts[0] or (pts[0] & (pts[0] - 1)):
        return -1
    for i in range(4):
        if i != seat and (p.hand[i] & pts[0]):
            return i
    return -1


cdef inline int low_enough(uint64_t mine, uint64_t theirs, uint64_t in_play,
                           uint64_t* rel) noexcept nogil:
    """Whether the seat's cards ``mine`` of a suit include as many below the lowest
    of H's cards ``theirs`` of it as the shorter of the two holdings: then to each
    trick of the suit it can play one of them under H's card, and the count still
    holds after it (H's lowest only rises).  ``rel``: the suit's cards in play up to
    H's lowest."""
    cdef uint64_t low = theirs & (~theirs + 1)
    cdef int n = __builtin_popcountll(theirs)
    if __builtin_popcountll(mine) < n:
        n = __builtin_popcountll(mine)
    if __builtin_popcountll(mine & (low - 1)) < n:
        return 0
    rel[0] = in_play & ((low << 1) - 1) & SUIT_MASK[__builtin_ctzll(theirs) >> 4]
    return 1


cdef int point_safe(const Pos* p, const Rules* r, int seat, int h, uint64_t pts,
                    uint64_t others, uint32_t tl, uint64_t* rel) noexcept nogil:
    """Whether a lone seat at a trick's start in a contract whose points are on cards
    only, the one card with points left (Barbu's K♥) being held by another hand H,
    can avoid taking it (a sufficient test, weaker than :func:`null_safe`'s).

    In the points' suit the seat passes :func:`null_safe`'s test against H's cards
    alone (its i-th lowest card below H's i-th lowest, up to the shorter count),
    and H and the seat do not both hold cards above the points' card; in every other suit
    it passes against all the others' cards.  While H holds points it holds a card
    of that suit and must follow with it.  In that suit the seat plays its highest
    card below H's when H has played, else (and when it leads) its card at the
    shorter count, which is below H's highest card and so below the points' card:
    the test still holds after the trick, a trick the seat wins has no points, and it
    never wins with its last card of the suit, so it can always lead one.  In the
    other suits it never wins (as :func:`null_safe`), and its discards, its highest
    card of a suit, keep every test true.  The card with points, played or
    discarded, falls to another hand.  The seat may be on lead: it leads that suit.

    Under the heart-lead rule with the points in hearts the seat may not lead a heart
    while it holds another suit, and a lead of a suit the others are void in wins
    with the K♥ discarded on it (say ♠A ♥9 ♥2 against H's ♥K ♥Q ♥3: on a heart
    lead H keeps the ♥3 to put under the ♥9 later).  Then, unless the seat holds only
    hearts, it must never win a heart trick, and may be on lead only now with a lead
    that loses (:func:`safe_lead`, after which the tests still hold): when H sits on
    its right, H plays before it to every trick it does not lead, and the seat plays
    its highest heart below H's (there is one, and the pairing test still holds);
    else it needs as many hearts below H's lowest as H has hearts, or all its hearts
    there: to a heart trick it plays its highest heart below H's card when H has
    played, else one of those (H follows higher), so each heart trick takes at most
    one of them and one of H's hearts.  When void it discards from another suit
    while it has one.  It wins no other trick either, so it never leads.
    ``h``, ``pts``: H and the card (:func:`points_holder`); ``others``: the other
    hands' cards.  ``rel``: the cards the test read, the card with points and those
    above it (their holders)."""
    cdef int sx
    cdef uint64_t relx = 0, above, mine, lead = 0
    cdef uint64_t in_play = others | p.hand[seat]
    sx = __builtin_ctzll(pts) >> 4
    if not (p.hand[seat] & SUIT_MASK[sx]):
        return 0    # null_safe's test
    above = SUIT_MASK[sx] & ~((<uint64_t>2 << high_bit(pts)) - 1)
    if (p.hand[h] & above) and (p.hand[seat] & above):
        return 0    # the seat's card could top the points (see above)
    mine = p.hand[seat] & SUIT_MASK[sx]
    if r.heart_lead and sx == 1 and (p.hand[seat] & ~SUIT_MASK[1]):
        # the seat may not lead a heart while it holds another suit, and a lead of
        # another suit may win with the K♥ discarded on it: it must never win a heart
        # trick, and be on lead only now, with a lead that loses.  H on its right plays
        # before it to every trick it does not lead: the pairing test suffices.  Else
        # it needs as many hearts below H's lowest as H has hearts (or as it has).
        if seat == p.leader and not safe_lead(p, r, seat, others, tl, &lead):
            return 0
        if ((h + 1) & 3) == seat:
            if not null_safe(mine, p.hand[h] & SUIT_MASK[sx], NO_TMAX, &relx):
                return 0
        elif not low_enough(mine, p.hand[h] & SUIT_MASK[1], in_play, &relx):
            return 0
    elif not null_safe(mine, p.hand[h] & SUIT_MASK[sx], NO_TMAX, &relx):
        return 0
    if not null_safe(p.hand[seat] & ~SUIT_MASK[sx], others & ~SUIT_MASK[sx],
                     tl, rel):
        return 0
    rel[0] |= relx | lead | pts | (above & in_play)
    return 1


cdef int long_holder(const Pos* p, int seat, int h, int sx) noexcept nogil:
    """:func:`dump_safe`'s second form, where the seat holds no card of the points' suit X
    above the points, or passes dump_safe's condition 1 in X: in every other suit the
    seat holds, H holds at least as many cards as the seat (its *margin* there, H's
    count less the seat's, is not negative), and unless H sits on the seat's right, the
    margin is 0 in one such suit at most.

    The seat's play: to a trick of X, any card of X (with condition 1, one below H's
    lowest, so that it wins no trick of X); to a trick of a suit Y it holds, its highest
    card of Y; void in the suit led, its highest card of a suit Y: with H on its right,
    the suit H discarded from on this trick if it holds it, else (or when H followed
    suit) the suit Y of least margin, else its highest card of X; on lead, its highest
    card of a suit Y (a suit other than hearts under the heart-lead rule, where it has
    one), else a card of X (with condition 1, below H's lowest).  H holds X while it
    holds the points, and each suit Y while the seat does (its margin is not negative),
    so H follows every suit the seat holds, and H is void in the suit led only where the
    seat is too (and discards, winning nothing).  A trick of Y the seat wins has a card
    of Y from H, not the points; a trick of X with the points in it goes to them or a
    higher card, never to the seat's (it holds none higher, or wins no trick of X).  A
    margin falls only on a trick both are void in, where H discards from Y and the seat
    from another suit: with H on its right, H plays before it to every trick it does not
    lead, and the seat discards from H's suit; else the seat raises the least margin by
    one, and H lowers one by one, so that all margins stay at 0 or more with at most one
    at 0.  (Two margins of 0 with H on its left are not enough: N ♠A8 ♥3 ♦4 against E
    ♠32 ♥K ♦8, W ♠Q ♥T2 ♦7 and S ♠K5 ♣65 on lead, N takes the K♥: ``test_long_holder``.)
    The counts are in the table's suit lengths; the test reads the points and the cards
    of X above them (with condition 1, the cards of X up to H's lowest)."""
    cdef int y, margin, zeros = 0
    for y in range(4):
        if y == sx or not (p.hand[seat] & SUIT_MASK[y]):
            continue
        margin = __builtin_popcountll(p.hand[h] & SUIT_MASK[y]) \
            - __builtin_popcountll(p.hand[seat] & SUIT_MASK[y])
        if margin < 0:
            return 0
        if margin == 0:
            zeros += 1
    return zeros <= 1 or ((h + 1) & 3) == seat


cdef int dump_safe(const Pos* p, const Rules* r, int seat, int h, uint64_t pts,
                   uint64_t others, uint32_t tl, uint64_t* rel) noexcept nogil:
    """Whether a lone seat at a trick's start in a contract whose points are on one
    card only, held by another hand H, can avoid taking it while it may still win
    tricks of one suit (a sufficient test beside :func:`point_safe`, which lets it
    win none), or of several suits where H holds as many cards as it does
    (:func:`long_holder`: with no card of X above the points, or with condition 1).

    The conditions, with X the points' suit:

    1. In X the seat holds as many cards below H's lowest card of X as the shorter
       of its and H's holdings of X.
    2. Its other cards are of one suit Y of which H holds as many as it does, or of
       suits P that pass :func:`null_safe`'s test against the others' cards.
    3. With suits P: H holds as many cards of Y as the seat holds of Y and of the
       suits P together, and H's cards of Y all lie above the seat's lowest.

    The seat's play: to an X trick, a card below H's lowest (H holds X while it holds
    the points and follows higher); to Y, its highest card of Y; to P, as
    :func:`null_safe`; void, it discards its highest card of Y, else its highest of
    a suit P, else its highest of X; on lead, its highest card of Y, else (or where the
    heart-lead rule forbids a lead of Y, hearts) one of X below H's.
    Each X trick uses up one of its low cards and one of H's cards of X, and H's
    lowest only rises, so (1) holds throughout.  H holds at least as many cards of Y
    as the seat while the seat holds any: both follow to a Y trick; void in the suit
    led the seat discards from Y and H at most one card of Y; only where the seat
    follows a suit P may H discard from Y without the seat doing so, and (3) counts
    those tricks.  So the seat wins tricks of Y only, to which H follows with a card
    of Y, never with the points.  After winning one it leads Y again; with suits P it
    keeps its lowest card of Y for last, and that card loses to H's (3), so it never
    has to lead from P.  In X it never wins, and in P never (it never leads them).
    Under the heart-lead rule with Y hearts and suits P it could have to lead from
    P: not taken.  ``h``, ``pts``: H and the card (:func:`points_holder`).
    ``rel``: the cards of X up to H's lowest, the points, the bottoms of the suits
    P, the cards of Y up to the seat's lowest (with suits P); the counts are in the
    table's suit lengths."""
    cdef int sx, y, nd = 0, dy = -1, npair = 0, longer
    cdef uint64_t relx, prel, cards, hy, lowy, above
    cdef uint64_t in_play = others | p.hand[seat]
    sx = __builtin_ctzll(pts) >> 4
    longer = long_holder(p, seat, h, sx)
    above = SUIT_MASK[sx] & ~((<uint64_t>2 << high_bit(pts)) - 1)
    if longer and not (p.hand[seat] & above):
        rel[0] = pts | (above & in_play)
        return 1
    if not low_enough(p.hand[seat] & SUIT_MASK[sx], p.hand[h] & SUIT_MASK[sx], in_play, &relx):
        return 0
    if longer:
        rel[0] = relx | pts
        return 1
    for y in range(4):
        cards = p.hand[seat] & SUIT_MASK[y]
        if y == sx or not cards:
            continue
        if null_safe(cards, others & SUIT_MASK[y], tl, &prel):
            npair += __builtin_popcountll(cards)
            relx |= prel
            continue
        if __builtin_popcountll(p.hand[h] & SUIT_MASK[y]) < __builtin_popcountll(cards):
            return 0
        nd += 1
        dy = y
    if nd > 1:
        return 0
    if npair:
        if nd == 0:
            if seat == p.leader:
                return 0    # it would lead from P or X: point_safe's case
        else:
            if r.heart_lead and dy == 1:
                return 0
            cards = p.hand[seat] & SUIT_MASK[dy]
            hy = p.hand[h] & SUIT_MASK[dy]
            if __builtin_popcountll(hy) < __builtin_popcountll(cards) + npair:
                return 0
            lowy = cards & (~cards + 1)
            if hy & (lowy - 1):
                return 0
            relx |= in_play & SUIT_MASK[dy] & ((lowy << 1) - 1)
    rel[0] = relx | pts
    return 1


cdef inline int skip_equal(const Rules* r, int card, uint64_t failed, uint64_t acc) noexcept nogil:
    """Whether ``card`` may be skipped at a node where every move so far failed: an
    earlier card of its suit and score class failed (``failed``: the cards searched
    so far), and both lie below every card of the suit that the failures depended on
    (``acc``).  The two positions after them then match the same relevant-rank
    pattern, so they have the same value (DDS skips moves the same way)."""
    cdef int s = card >> 4, low, cls
    cdef uint32_t rs, cand
    if r.special[s]:
        return 0
    rs = <uint32_t>((acc >> (16 * s)) & SUIT_BITS)
    low = __builtin_ctzll(<uint64_t>rs) if rs else 16
    if (card & 15) >= low:
        return 0
    cand = <uint32_t>((failed >> (16 * s)) & SUIT_BITS) & ((<uint32_t>1 << low) - 1)
    if not cand or r.sym_mode[s] == 0:
        return cand != 0
    cls = r.card_class[card]
    while cand:
        if r.card_class[16 * s + __builtin_ctzll(<uint64_t>cand)] == cls:
            return 1
        cand &= cand - 1
    return 0


cdef inline int qt_goal(const Pos* p, const Rules* r, int32_t target, int maxi,
                        int* q) noexcept nogil:
    """What a count of sure tricks for the team of the hand that counts (``maxi``: it
    is the maximising side) would decide: 1 if ``q`` tricks reach ``target``, 0 if
    the other team's ``q`` tricks leave too few (``pts_pos + (left - q) * value <
    target``), -1 if no count can decide."""
    if maxi:
        q[0] = (target + r.qt_value - 1) // r.qt_value
        return 1 if q[0] <= p.tricks_left else -1
    if target <= p.pts_pos:
        return -1
    q[0] = p.tricks_left - (target - p.pts_pos + r.qt_value - 1) // r.qt_value + 1
    return 0 if 0 < q[0] <= p.tricks_left else -1


cdef inline int32_t qt_bound(const Pos* p, const Rules* r, int cres, int q) noexcept nogil:
    """The bound that ``q`` sure tricks give (see qt_goal): for the maximising team
    (``cres`` 1) at least ``q`` tricks' worth; for the other team at most the
    points left but ``q`` tricks' worth."""
    if cres:
        return q * r.qt_value
    return p.pts_pos + (p.tricks_left - q) * r.qt_value


cdef inline uint64_t hint_key(const Pos* p, int seat) noexcept nogil:
    """The refutation memory's key: the mover's hand, the cards played to the trick
    (and by whom) and the side; not the other hands.  (``clear()`` empties the
    memory with the table: keyed by the table's generation instead, which positions
    share a slot would depend on how many solves came before, and so would the node
    counts.)

    The memory remembers, for such a key, the last card that cut off the search
    (for the side maximising, only one found after its first card failed; not at all
    where Barbu's K♥ tests serve, whose lone seat's first card is nearly always right
    and the memory made its slowest deals slower), and the move order tries it
    first.  It serves nodes with 4 tricks left or more.  It orders moves only, so it
    needs no exactness: a card that refuted a line with this hand in this trick often
    refutes it with the other hands' cards dealt a little differently.  The perfect
    order would help most in the others' proofs that a lone seat cannot reach a
    score: there, with 7 or more tricks left, their first lead was wrong about half
    the time without the memory and is wrong 16 % of the time with it (No Last Two
    deals 3 and 7; benchmarks/HISTORY.md, session 17)."""
    cdef uint64_t t = 0, x
    cdef int i
    for i in range(p.ntrick):
        t |= (<uint64_t>(p.trick_card[i] + 1)) << (7 * i)
    x = (<uint64_t>p.leader | (<uint64_t>p.ntrick << 2) | (<uint64_t>p.side << 4)
         | (t << 8)) * <uint64_t>0x9E3779B97F4A7C15ULL
    x ^= p.hand[seat]
    x *= <uint64_t>0xBF58476D1CE4E5B9ULL
    return x ^ (x >> 29)


cdef int lone_safe(const Pos* p, const Rules* r, int seat, int points,
                   uint64_t* rel) noexcept nogil:
    """Whether the lone seat, at a trick's start, passes a test that it takes no more
    tricks (:func:`null_safe`, with :func:`safe_lead` on lead) or, with ``points``,
    no more points (:func:`point_safe`, :func:`dump_safe`): its future is then 0."""
    cdef int holder, safe = 0
    cdef uint64_t others = (p.hand[0] | p.hand[1] | p.hand[2] | p.hand[3]) & ~p.hand[seat]
    cdef uint64_t lead = 0, pts
    cdef uint32_t tl
    if r.king_duty and (p.hand[seat] >> KH_CARD) & 1:
        return 0
    tl = longest_others(p, seat)
    safe = r.null_ok and null_safe(p.hand[seat], others, tl, rel) \
        and (seat != p.leader or safe_lead(p, r, seat, others, tl, &lead))
    if not safe and r.point_ok and points:
        # the one card with points left and its holder, for both tests
        holder = points_holder(p, r, seat, others | p.hand[seat], &pts)
        safe = holder >= 0 and (point_safe(p, r, seat, holder, pts, others, tl, rel)
                                or dump_safe(p, r, seat, holder, pts, others, tl, rel))
    if safe:
        rel[0] |= lead
    return safe


cdef int lone_safe_in_trick(const Pos* p, const Rules* r, int seat,
                            uint64_t* rel) noexcept nogil:
    """:func:`lone_safe` for the lone seat to play to a trick in progress: whether it
    has a legal card that does not win the trick (below the card winning it, or a
    discard; no trumps here) after which the test holds at the next trick.  The test
    is made on the hands as they are, but for that card: the others still to play to
    the trick hold a card more each, which only makes the tests harder to pass
    (:func:`null_safe` against more cards and longer holdings), except for H's hand
    in the K♥ tests, which are tried only when H has played to the trick.  The
    candidates: following, its highest card below the winning one; void, its highest
    card of each suit.  :func:`null_safe`'s test is made suit by suit once, and then
    again only in the candidate's suit (a suit that fails elsewhere fails them all).
    ``rel``: the test's cards, and when following the card and the winning card (a
    discard is the seat's highest card of its suit: the table's pattern fixes it, or
    it lies among cards alike, as its other cards of the suit).  (Twenty 10-card
    endings: No Last Two 12.1 M -> 10.3 M nodes, the Salad 39.9 M -> 36.6 M; Barbu's
    50 benchmark deals 36.3 M -> 33.1 M.)"""
    cdef uint64_t cands = legal_mask(p, r, seat), pts, low, got, mine = p.hand[seat]
    cdef uint64_t others = (p.hand[0] | p.hand[1] | p.hand[2] | p.hand[3]) & ~mine
    cdef uint32_t tl, seen[4]
    cdef uint32_t sn
    cdef Pos q
    cdef int i, w = p.trick_card[p.win_idx], s = p.trick_card[p.win_idx] >> 4, h_played = 1
    cdef int fails = 0, fs = -1, t
    if cands & SUIT_MASK[s]:
        cands &= SUIT_MASK[s] & (((<uint64_t>1) << w) - 1)
        if cands:
            cands = (<uint64_t>1) << high_bit(cands)
    else:
        low = 0
        for s in range(4):
            if cands & SUIT_MASK[s]:
                low |= (<uint64_t>1) << high_bit(cands & SUIT_MASK[s])
        cands = low
        w = -1
    if not cands:
        return 0
    if r.null_ok and not (r.king_duty and (mine >> KH_CARD) & 1):
        tl = longest_others(p, seat)
        for s in range(4):
            if not suit_pairs(lane(mine, s), lane(others, s), <int>((tl >> (8 * s)) & 0xFF),
                              &seen[s]):
                fails += 1
                fs = s
        if fails <= 1:
            low = cands
            while low:
                i = __builtin_ctzll(low)
                low &= low - 1
                s = i >> 4
                if fails and s != fs:
                    continue
                # the candidate's suit again without it (the others' as they are)
                t = <int>((tl >> (8 * s)) & 0xFF)
                if not suit_pairs(lane(mine & ~((<uint64_t>1) << i), s), lane(others, s), t, &sn):
                    continue
                got = (<uint64_t>sn) << (16 * s)
                for t in range(4):
                    if t != s:
                        got |= (<uint64_t>seen[t]) << (16 * t)
                rel[0] = got
                if w >= 0:
                    rel[0] |= ((<uint64_t>1) << i) | ((<uint64_t>1) << w)
                return 1
    if not r.point_ok:
        return 0
    # the K♥ tests only once the holder of the points has played to the trick
    pts = (p.hand[0] | p.hand[1] | p.hand[2] | p.hand[3]) & r.point_cards
    h_played = 0
    for i in range(p.ntrick):
        if pts & p.hand[(p.leader + i) & 3]:
            h_played = 1
    if not h_played:
        return 0
    memcpy(&q, p, sizeof(Pos))
    q.ntrick = 0    # the trick's leader, one of the others, stands for its winner
    while cands:
        i = __builtin_ctzll(cands)
        cands &= cands - 1
        q.hand[seat] = mine & ~((<uint64_t>1) << i)
        if lone_safe(&q, r, seat, 1, rel):
            if w >= 0:
                rel[0] |= ((<uint64_t>1) << i) | ((<uint64_t>1) << w)
            return 1
    return 0


cdef int budget_safe(const Pos* p, const Rules* r, int seat, int32_t target,
                     uint64_t* rel, int32_t* val) noexcept nogil:
    """Whether the lone seat, at a trick's start in a contract whose points are on a
    few cards (No Queens), can afford every card with points but one, and passes
    :func:`point_safe`'s or :func:`dump_safe`'s test for that one: it then never takes
    it, and its future is at least ``val``, the points of the others (at least
    ``target``).  Those tests' strategies avoid one card whatever the other cards
    with points do (they fall on tricks of the seat's that the tests allow), so they
    hold here as in Barbu.  Each card is tested by itself: two cards avoided by two
    strategies need not be avoided by one.  ``rel``: the test's cards; which cards
    with points are left, and their holders, are in the table's key.

    Tried only with ``r.budget_from`` tricks left or more: nearer the end the search
    finds the same answers with entries that depend on fewer cards, and the tests'
    made the table's entries above them specific (No Queens deal 7, the probe at -12:
    9.47 M nodes without the test, 20.2 M with it from 2 tricks left, 9.28 M from 7;
    benchmarks/HISTORY.md, session 20)."""
    cdef uint64_t others = (p.hand[0] | p.hand[1] | p.hand[2] | p.hand[3]) & ~p.hand[seat]
    cdef uint64_t cands = others & r.point_cards, c1
    cdef uint32_t tl = 0
    cdef int i, h, first = 1
    if r.king_duty and (p.hand[seat] >> KH_CARD) & 1:
        return 0
    while cands:
        i = __builtin_ctzll(cands)
        cands &= cands - 1
        if p.pts_neg - r.card_points[i] < target:
            continue
        if first:
            tl = longest_others(p, seat)
            first = 0
        c1 = (<uint64_t>1) << i
        h = 0
        while not (p.hand[h] & c1):
            h += 1
        if point_safe(p, r, seat, h, c1, others, tl, rel) \
                or dump_safe(p, r, seat, h, c1, others, tl, rel):
            val[0] = p.pts_neg - r.card_points[i]
            return 1
    return 0


cdef inline int group_top(const Pos* p, const Rules* r, int seat, int card) noexcept nogil:
    """Whether ``card`` is legal for ``seat`` and the top of its group of equal cards,
    the card :func:`gen_moves` would give for the group."""
    cdef uint64_t legal = legal_mask(p, r, seat)
    cdef uint64_t present = p.hand[0] | p.hand[1] | p.hand[2] | p.hand[3] | trick_mask(p)
    cdef int s = card >> 4, rk = card & 15
    cdef uint32_t L = <uint32_t>((legal >> (16 * s)) & SUIT_BITS), above
    if card < 0 or not ((L >> rk) & 1):
        return 0
    above = L & ~((<uint32_t>2 << rk) - 1)
    if not above:
        return 1
    return not joins_group(r, <uint32_t>((present >> (16 * s)) & SUIT_BITS), s,
                           __builtin_ctzll(<uint64_t>above), rk)


cdef inline int helper_swaps(const Ctx* c, int maxi) noexcept nogil:
    """Whether the second thread (``par_value``) changes the move order here: at the
    nodes of the side not maximising (the others against a lone seat) with
    ``HELPER_LEFT`` tricks left or more, unless the contract has the second thread's
    own order (``Rules.helper_on``: helper_score orders those nodes instead)."""
    return c.helper and not maxi and c.p.tricks_left >= HELPER_LEFT and not c.r.helper_on


cdef inline void helper_order(int* moves, int* lows, int n) noexcept nogil:
    """The second thread's order where ``helper_swaps``: the first two moves
    swapped.  Where the others' first choice is wrong (the costly first tries of a
    probe that fails; benchmarks/HISTORY.md, session 13) the second thread is on
    the next one at once, and in a proof that the lone seat succeeds, where all
    their moves are searched, the two threads start in different subtrees and meet
    in the table.
    (Nine one-seat solves of No Hearts, No Queens, No Tricks, No Last Two, Barbu and
    the Salad, best of two runs each: 12.4-12.7 s in all with one thread, 8.7-8.9 s
    with this order; with the others' moves reversed 9.4 s, the lone seat's
    reversed 12.7 s, both sides' reversed 13.0 s; benchmarks/HISTORY.md, session 22.)
    The second thread's entries carry no best move and it keeps its own refutation
    memory, so the first thread's order stays its own."""
    cdef int t
    if n > 1:
        t = moves[0]
        moves[0] = moves[1]
        moves[1] = t
        t = lows[0]
        lows[0] = lows[1]
        lows[1] = t


cdef inline int narrow_width(Ctx* c, int n) noexcept nogil:
    """How many of its ``n`` moves (best first) the minimising side searches in a
    narrow pass (see narrow_search)."""
    cdef int w = c.narrow_lead if c.p.ntrick == 0 else c.narrow_play
    if n > w:
        c.narrowed = 1
        return w
    return n


cdef int32_t search(Ctx* c, int32_t target, uint64_t* rel) noexcept nogil:
    """A bound on the side's score from here (the current trick included), tested
    against ``target`` (fail-soft): a result ``v >= target`` means the side can
    score at least ``v``; ``v < target`` that it cannot score more than ``v``.
    ``rel`` receives the cards whose ranks the answer depends on."""
    cdef Pos* p = &c.p
    cdef const Rules* r = c.r
    cdef int32_t lo, hi, got, cv, best
    cdef Codes codes
    cdef Codes ncodes
    cdef uint64_t h = 0, nh = 0, crel, acc = 0, trel
    cdef int use_tt = 0, cres, seat, n, i, maxi, hint = -1, cut = -1, s, q, sure, lazy
    cdef uint64_t qcards, others, lead, pts
    cdef int moves[MAX_MOVES]
    cdef int lows[MAX_MOVES]
    cdef uint64_t failed = 0, budget, hk = 0, he
    cdef uint32_t undecided
    cdef int rounds, swap
    cdef uint8_t ekk[4]
    cdef uint8_t ejj[4]
    cdef uint16_t ebest
    cdef Pos saved
    c.st.nodes += 1
    c.st.by_left[p.tricks_left] += 1
    rel[0] = 0
    if c.abort_at and c.st.nodes >= c.abort_at:
        # a budgeted search ran out (see the rounds below): give up
        c.aborted = 1
        return 0
    if c.limited and past_limit(c):
        # the caller's limit: give up everywhere (nothing half-done is stored)
        c.aborted = 1
        return 0
    if g_interrupt:
        # Ctrl-C (catch_sigint): give up everywhere, as at a limit
        c.stopped = 1
        c.aborted = 1
        return 0
    if c.sh != NULL and (bdd_load_u32(&c.sh.version) != c.version
                         or (c.node_cap and c.st.nodes >= c.node_cap)):
        # two threads: the other finished a probe (this one is moot), or this one's
        # solo start is over (par_value)
        c.aborted = 1
        c.moot = 1
        return 0
    if r.ravage:
        if p.tricks_left == 0:
            return ravage_final(p, r)
        ravage_bounds(p, r, &lo, &hi)
    else:
        if p.tricks_left == 0:
            return 0
        lo = bound_lo(p, r)
        hi = bound_hi(p, r)
    if lo >= target:
        return lo
    if hi < target:
        return hi
    if p.tricks_left == 1:
        return last_trick(c, rel)
    if p.ntrick == 0 and target <= 0 and (r.null_ok or r.point_ok) \
            and (p.side & (p.side - 1)) == 0:
        # can the lone seat avoid every trick left, or every card with points?  Its
        # future is then 0.  On lead, it needs a lead that loses and keeps the test.
        if lone_safe(p, r, __builtin_ctzll(<uint64_t>p.side), 1, &qcards):
            c.st.null_cuts += 1
            rel[0] = qcards
            return 0
    if p.ntrick == 0 and target < 0 and r.budget_from \
            and p.tricks_left >= r.budget_from and (p.side & (p.side - 1)) == 0 \
            and budget_safe(p, r, __builtin_ctzll(<uint64_t>p.side), target, &qcards, &got):
        # the lone seat may take points, but never one of the cards (No Queens)
        c.st.null_cuts += 1
        rel[0] = qcards
        return got
    if p.ntrick > 0 and target <= 0 and r.mid_ok \
            and p.side == (1 << ((p.leader + p.ntrick) & 3)) \
            and lone_safe_in_trick(p, r, (p.leader + p.ntrick) & 3, &qcards):
        c.st.null_cuts += 1
        rel[0] = qcards
        return 0
    if p.ntrick == 0 and r.qt_ok and r.trump >= 0:
        # sure trump tricks of either team, whoever is on lead
        q = trump_tricks(p, r, 1, &qcards)
        if q and qt_bound(p, r, 1, q) >= target:
            rel[0] = qcards
            return qt_bound(p, r, 1, q)
        q = trump_tricks(p, r, 0, &qcards)
        if q and qt_bound(p, r, 0, q) < target:
            rel[0] = qcards
            return qt_bound(p, r, 0, q)
    if p.ntrick == 0 and r.qt_ok:
        cres = qt_goal(p, r, target, (p.side >> p.leader) & 1, &q)
        if cres >= 0:
            sure = quick_tricks(p, r, q, &qcards)
            if sure >= q:
                rel[0] = qcards
                return qt_bound(p, r, cres, sure)
        # one team needs every trick left: can it take them all?
        if target > qt_bound(p, r, 0, 1) and all_tricks_bound(p, r, 1, &qcards):
            rel[0] = qcards
            return qt_bound(p, r, 0, 1)
        if target <= qt_bound(p, r, 1, 1) and all_tricks_bound(p, r, 0, &qcards):
            rel[0] = qcards
            return qt_bound(p, r, 1, 1)
    if p.ntrick == 1 and r.qt_ok:
        cres = qt_goal(p, r, target, (p.side >> ((p.leader + 1) & 3)) & 1, &q)
        if cres >= 0:
            sure = second_hand_tricks(p, r, q, &qcards)
            if sure >= q:
                rel[0] = qcards
                return qt_bound(p, r, cres, sure)
    if p.ntrick == 0:
        use_tt = 1
        make_codes(p, r, &codes)
        h = hash_codes(&codes)
        if tt_lookup(c, &codes, h, target, &cv, ekk, ejj, &ebest):
            c.st.tt_hits += 1
            rel[0] = region_cards(&codes, ekk, ejj)
            return cv
        if ebest != 0xFFFF:
            hint = card_from_rel(p, ebest)
        if c.narrow_pass:
            # a narrow pass also reads its own successes of the side (see narrow_search)
            memcpy(&ncodes, &codes, sizeof(Codes))
            ncodes.misc = ncodes.misc | <uint8_t>(c.narrow_pass << 6)
            nh = hash_codes(&ncodes)
            if tt_lookup(c, &ncodes, nh, target, &cv, ekk, ejj, &ebest) and cv >= target:
                c.narrowed = 1
                c.st.tt_hits += 1
                rel[0] = region_cards(&codes, ekk, ejj)
                return cv
    seat = (p.leader + p.ntrick) & 3
    maxi = (p.side >> seat) & 1
    if p.tricks_left >= HINT_LEFT and (not maxi or not r.point_ok):
        hk = hint_key(p, seat)
        he = c.hints[hk >> c.hint_shift]
        if ((he ^ hk) >> 8) == 0:
            hint = <int>(he & 0xFF) - 1
    best = -BIG if maxi else BIG
    memcpy(&saved, p, sizeof(Pos))
    # The hint's card comes first in the order (a group's top card, as gen_moves
    # gives it): the loop below searches it alone, and only where it proves no
    # cut-off are the other moves generated.  The same nodes, 2.4-2.6 % fewer
    # instructions in the search (callgrind, No Tricks deal 6 at -6, the Salad deal 6
    # at -60).  Not at nodes searched in rounds, which need the count of moves.
    swap = helper_swaps(c, maxi)
    lazy = hint >= 0 and not swap and not (r.rounds_ok and p.ntrick == 0 and not maxi
                                           and p.tricks_left >= ROUNDS_LEFT and c.abort_at == 0) \
        and group_top(p, r, seat, hint)
    if lazy:
        moves[0] = hint
        n = 1
    else:
        n = gen_moves(c, seat, moves, lows, hint)
        if swap:
            helper_order(moves, lows, n)
        if c.narrow_pass and not maxi:
            n = narrow_width(c, n)
    # Where the side not maximising leads with many tricks left in a negative
    # contract (the others against a lone seat), the first lead tried is often not
    # its best, and a failing lead costs a large subtree.  Such a node searches its
    # moves in rounds instead: each move with a node budget, eight times larger
    # each round, until one proves a cut-off or every move has failed; a move whose
    # search ran out of budget is searched again in the next round (what it proved
    # meanwhile stays in the table).  The last rounds have no budget.  Inside a
    # budgeted search there are no further rounds.  (No Tricks deal 1: 547 M ->
    # 358 M nodes; benchmarks/HISTORY.md, session 11.)
    rounds = r.rounds_ok and p.ntrick == 0 and not maxi and p.tricks_left >= ROUNDS_LEFT \
        and c.abort_at == 0 and n > 1
    if rounds:
        c.st.rounds += 1
    undecided = ((<uint32_t>1) << n) - 1
    budget = ROUNDS_BUDGET if rounds else 0
    while True:
        for i in range(n):
            if not (undecided >> i) & 1:
                continue
            if i > 0 and skip_equal(r, moves[i], failed, acc):
                undecided &= ~((<uint32_t>1) << i)
                continue
            if p.ntrick == 3:
                c.st.trick_nodes += 1
            got = play_card(p, r, seat, moves[i])
            trel = p.trick_rel if p.ntrick == 0 else 0
            if budget:
                c.abort_at = c.st.nodes + budget
            cv = got + search(c, target - got, &crel)
            memcpy(p, &saved, sizeof(Pos))
            if rounds:
                c.abort_at = 0
            if c.aborted:
                if not rounds or c.stopped or c.moot:
                    return 0    # out of budget: nothing proved, nothing stored
                c.aborted = 0
                continue
            undecided &= ~((<uint32_t>1) << i)
            crel |= trel
            if (cv >= target) == maxi:
                best = cv
                acc = crel
                cut = moves[i]
                if r.use_hist:
                    c.hist[seat][cut] += p.tricks_left * p.tricks_left
                c.st.cut_at[p.ntrick][i if i < 3 else 3] += 1
                if hk and (i > 0 or not maxi) and not c.helper:
                    c.hints[hk >> c.hint_shift] = (hk & ~(<uint64_t>0xFF)) | <uint64_t>(cut + 1)
                break
            acc |= crel
            failed |= (<uint64_t>1) << moves[i]
            if maxi:
                if cv > best:
                    best = cv
            elif cv < best:
                best = cv
        if cut < 0 and lazy:
            # the hint failed: now the other moves (the hint is moves[0] again)
            lazy = 0
            n = gen_moves(c, seat, moves, lows, hint)
            if c.narrow_pass and not maxi:
                n = narrow_width(c, n)
            undecided = ((<uint32_t>1) << n) - 2
            continue
        if cut >= 0 or not undecided:
            break
        budget <<= 3
        if budget > (<uint64_t>1 << 40):
            budget = 0
    if cut < 0:
        c.st.allnodes[p.ntrick] += 1
        # every move was searched: a group of equal cards stands for all its members
        # when none of them is relevant (they are then small cards alike), or when
        # all are (their order against every other card is then kept)
        for i in range(n):
            if lows[i] != moves[i]:
                trel = p.hand[seat] & ((((<uint64_t>1) << (moves[i] + 1)) - 1)
                                       & ~(((<uint64_t>1) << lows[i]) - 1))
                if acc & trel:
                    acc |= trel
    rel[0] = acc
    if use_tt:
        # the second thread stores no best move (its order is not the first's)
        ebest = 0xFFFF if c.helper else rel_of_card(p, cut)
    if use_tt and c.narrow_pass and best >= target:
        # the side's success in a narrow pass holds against the narrowed moves only:
        # stored under the pass's mark, which only that pass reads
        tt_store(c, &ncodes, nh, acc, best, hi, p.tricks_left, ebest)
    elif use_tt:
        if best >= target:
            tt_store(c, &codes, h, acc, best, hi, p.tricks_left, ebest)
        else:
            tt_store(c, &codes, h, acc, lo, best, p.tricks_left, ebest)
    return best


cdef int32_t narrow_search(Ctx* c, int32_t target, uint64_t* rel) noexcept nogil:
    """``search`` at ``target`` from the root, after narrow passes where the contract
    allows them (``Rules.narrow_ok``, a lone seat maximising).

    The others' proof that the lone seat cannot reach a score is cheap when their
    first move is right everywhere, and dear where it is not: every wrong first move
    costs a proof of the seat's, which must answer all of their moves (session 24:
    on No Last Two, where nearly every solve is that one proof, the moves that failed
    first took a third of the nodes).  A narrow pass searches the same probe with
    the others' moves limited to their first few in the move order (two leads and
    two other plays, then four and three); the lone seat's moves are all searched.
    Limiting the others' moves can only lower what they achieve, so a narrow pass
    that holds the seat below the target is a proof for the real game, and its
    answer is final.  Its failures (the seat reaching the target against the
    narrowed moves) are cheap, since the seat's proofs there answer two or three
    moves a node, but they hold for the narrowed game only: they go to the table
    under the pass's own mark (``TTEntry.misc``), which only that pass reads; the
    results that hold the seat below a target hold in the real game and are stored
    as usual (a proof of them never rests on a marked entry: such an entry can only
    let the seat succeed).  A pass that left out no move and read no marked entry
    searched the real game, and its answer is final either way (small searches, and
    cut-offs at the root, cost no more).  If no pass settles the probe, the full search follows,
    with the table and the refutation memory as the passes left them.  This is
    iterative widening (Cazenave, 2001) with one side's moves widened.  Measured in
    session 25 (``benchmarks/HISTORY.md``)."""
    cdef int32_t v
    cdef int i
    if c.r.narrow_ok and (c.p.side & (c.p.side - 1)) == 0:
        for i in range(NARROW_PASSES):
            c.narrow_pass = i + 1
            c.narrow_lead = NARROW_LEAD1 if i == 0 else NARROW_LEAD2
            c.narrow_play = NARROW_PLAY1 if i == 0 else NARROW_PLAY2
            c.narrowed = 0
            v = search(c, target, rel)
            c.narrow_pass = 0
            if c.aborted:
                return v
            if v < target or not c.narrowed:
                if c.narrowed:
                    c.st.narrow_proofs += 1
                return v
    return search(c, target, rel)


cdef int32_t probe_logged(Ctx* c, int32_t target) noexcept nogil:
    """``narrow_search`` at ``target`` from the root, recorded in the statistics'
    probe log (target, bound, nodes) while it has room."""
    cdef uint64_t rel, before = c.st.nodes
    cdef int32_t v = narrow_search(c, target, &rel)
    cdef int i = c.st.nprobes
    if i < MAX_PROBES:
        c.st.probe_target[i] = target
        c.st.probe_bound[i] = v
        c.st.probe_nodes[i] = c.st.nodes - before
        c.st.nprobes = i + 1
    return v


cdef inline int round_targets(int32_t g, int32_t lo, int32_t hi, int reverse, int want,
                              int32_t* out) noexcept nogil:
    """A round's targets under a limit, each once: just above the lower bound, the
    upper bound, the middle (the other way round with ``reverse``); returns how many.
    ``want`` 1 (the lower bound only): the one just above the lower bound alone; 2 (the
    upper bound only): the upper bound alone (a fail there lowers it to the bound
    proved, a success makes the value exact).  Measured (session 37, North alone on
    random boards 1-8 of seed 1, cold 64 MiB table; No Tricks 10 M nodes, No Queens
    and No Hearts 5 M) against the three targets: the upper bound lower on 6 of the
    24 solves, never higher; the lower bound higher on 8, lower on 1 (No Queens
    board 3: -24 against -18, where the three targets' cheap failing probes at the
    upper bound had filled the table for the one above the lower bound)."""
    cdef int32_t targets[3]
    cdef int i, j, n = 0, dup
    if want:
        out[0] = lo + g if want == 1 else hi
        return 1
    targets[0] = lo + g
    targets[1] = hi
    targets[2] = lo + ((hi - lo) // g + 1) // 2 * g
    for i in range(3):
        dup = 0
        for j in range(n):
            if out[j] == targets[2 - i if reverse else i]:
                dup = 1
        if not dup:
            out[n] = targets[2 - i if reverse else i]
            n += 1
    return n


cdef inline int32_t budgeted_probe(Ctx* c, int32_t target, uint64_t budget) noexcept nogil:
    """``probe_logged`` with a node budget (0: none); out of it, ``c.aborted`` is set."""
    cdef int32_t v
    c.abort_at = c.st.nodes + budget if budget else 0
    v = probe_logged(c, target)
    c.abort_at = 0
    return v


cdef inline uint64_t next_budget(uint64_t budget) noexcept nogil:
    """A limited search's probe budget after a round in which no probe finished:
    four times larger, and none (0) past 2^40 nodes."""
    budget <<= 2
    return 0 if budget > (<uint64_t>1 << 40) else budget


cdef int32_t limited_value(Ctx* c, int32_t lo, int32_t hi, int32_t* hi_out) noexcept nogil:
    """``solve_value`` under the caller's limit, narrowing ``lo..hi`` from both ends:
    a probe far from the value is cheap (it succeeds far below, fails far above)
    and one near it dear, so each round probes just above the lower bound, at the
    upper bound and in the middle, each probe with a node budget (four times larger
    each round in which none finished), until the value is exact or the limit is
    reached.  Returns the lower bound, ``*hi_out`` the upper."""
    cdef int32_t g = c.r.gcd, v, t
    cdef int32_t targets[3]
    cdef int i, n, done
    cdef uint64_t budget = 4096
    while lo < hi and not c.stopped:
        n = round_targets(g, lo, hi, 0, c.want, targets)
        done = 0
        for i in range(n):
            t = targets[i]
            if t <= lo or t > hi:
                continue
            v = budgeted_probe(c, t, budget)
            if c.stopped:
                break
            if c.aborted:
                c.aborted = 0   # out of budget: what it proved stays in the table
                continue
            done = 1
            if v >= t:
                lo = v
            else:
                hi = v
            if lo >= hi:
                break
        if not done and budget:
            budget = next_budget(budget)
    hi_out[0] = hi
    return lo


cdef int32_t solve_value(Ctx* c, int32_t* hi_out) noexcept nogil:
    """The exact value of the side: bisection over multiples of the scale's gcd; in
    negative contracts, one probe just above the lower bound, then probes down from
    the upper bound.  Returns the lower bound proved and sets ``*hi_out`` to the
    upper one: they are equal unless the caller's limit stopped the search
    (``c.stopped``).

    Negative contracts: many 1-against-3 values lie at the bottom of their range
    (No Last Two, Barbu, No Queens), and the first probe settles those.  Above it, the
    lone seat's proof that it keeps a score costs far more than the others' proof
    that it cannot keep a higher one, unless that score lies near the value (No
    Tricks deal 6, value -8, cold table: the probe at -8 succeeds in 6.9 M nodes,
    at -10 in 6.7 M, at -12 in 4.8 M; at -6 it fails in 0.27 M nodes, at -4 in 2
    k).  Probing down from the upper bound makes only failing probes until the
    value, and one proof of the seat's, there.  (Before session 20 a galloping
    search went up from the lower bound, then bisected: deal 6 16.3 M -> 6.6 M
    nodes; benchmarks/HISTORY.md.)"""
    cdef int32_t lo, hi, mid, g = c.r.gcd, v
    c.st.nprobes = 0
    if value_range(c, &lo, &hi):
        hi_out[0] = hi
        return lo
    if c.limited:
        return limited_value(c, lo, hi, hi_out)
    if lo < hi and not c.r.positive:
        v = probe_logged(c, lo + g)
        if c.stopped:   # Ctrl-C
            hi_out[0] = hi
            return lo
        if v >= lo + g:
            lo = v
        else:
            hi = v
    while lo < hi:
        mid = lo + ((hi - lo) // g + 1) // 2 * g if c.r.positive else hi
        v = probe_logged(c, mid)
        if c.stopped:   # Ctrl-C
            break
        if v >= mid:
            lo = v
        else:
            hi = v
    hi_out[0] = hi
    return lo


cdef inline int32_t next_target(const Ctx* c, int32_t lo, int32_t hi, int first_done) noexcept nogil:
    """The next probe of ``solve_value``'s order (``first_done``: the first probe of a
    negative contract, just above the lower bound, is done)."""
    cdef int32_t g = c.r.gcd
    if c.r.positive:
        return lo + ((hi - lo) // g + 1) // 2 * g
    if not first_done:
        return lo + g
    return hi


cdef inline int read_bounds(Ctx* c, Shared* sh, int32_t* lo, int32_t* hi) noexcept nogil:
    """The shared bounds into ``lo``, ``hi``, their version into ``c.version`` (a
    later change abandons this thread's probe); returns ``first_done``."""
    cdef int first_done
    bdd_seq_write_begin(&sh.lock)
    lo[0] = sh.lo
    hi[0] = sh.hi
    first_done = sh.first_done
    c.version = sh.version
    bdd_seq_write_end(&sh.lock)
    return first_done


cdef inline uint32_t merge_bound(Shared* sh, int32_t t, int32_t v, int32_t* lo,
                                 int32_t* hi) noexcept nogil:
    """Narrows the shared bounds by a finished probe at ``t`` (fail-soft bound ``v``);
    ``lo``, ``hi`` receive them and the new version is returned."""
    cdef uint32_t ver
    bdd_seq_write_begin(&sh.lock)
    if v >= t:
        if v > sh.lo:
            sh.lo = v
    elif v < sh.hi:
        sh.hi = v
    sh.first_done = 1
    ver = sh.version + 1
    bdd_store_u32(&sh.version, ver)
    lo[0] = sh.lo
    hi[0] = sh.hi
    bdd_seq_write_end(&sh.lock)
    return ver


cdef int32_t par_value(Ctx* c, Shared* sh) noexcept nogil:
    """``solve_value`` for one of two threads sharing the table (``Core.threads``):
    both probe the target that the shared bounds give, each with its own move order
    (see ``helper_order``), and a probe's result narrows the shared bounds; the other
    thread then abandons its probe (what it finished stays in the table) and goes on
    to the next target.  Returns when the bounds meet, or (``c.node_cap``) when this
    thread has searched that many nodes: the first thread searches alone until then,
    so that small solves never start a second thread.  Each thread's answer is exact:
    every probe's bound is, and the table holds only finished results."""
    cdef int32_t lo, hi, t, v
    cdef int first_done, logged
    while True:
        first_done = read_bounds(c, sh, &lo, &hi)
        if lo >= hi:
            return lo
        t = next_target(c, lo, hi, first_done)
        logged = c.st.nprobes
        v = probe_logged(c, t)
        if c.aborted:
            if c.stopped:   # Ctrl-C
                return lo
            c.aborted = 0
            c.moot = 0
            c.st.nprobes = logged   # not a probe's answer: out of the log
            if c.node_cap and c.st.nodes >= c.node_cap:
                return lo
            continue
        merge_bound(sh, t, v, &lo, &hi)


cdef void par_limited(Ctx* c, Shared* sh) noexcept nogil:
    """``limited_value`` for one of two threads (a time limit, ``Core.threads`` 2):
    rounds of budgeted probes just above the lower bound, at the upper bound and in
    the middle of the shared bounds, the second thread taking them in another order
    (middle, upper, lower); a finished probe narrows the shared bounds and makes the
    other thread's probe moot (it starts its round again from the new bounds).
    Returns at the deadline (``c.stopped``), when the bounds meet, or at
    ``c.node_cap``."""
    cdef int32_t g = c.r.gcd, v, t, lo, hi
    cdef int32_t targets[3]
    cdef int i, n, done, logged
    cdef uint64_t budget = 4096
    while not c.stopped:
        read_bounds(c, sh, &lo, &hi)
        if lo >= hi:
            return
        n = round_targets(g, lo, hi, c.helper, c.want, targets)
        done = 0
        for i in range(n):
            t = targets[i]
            if t <= lo or t > hi:
                continue
            logged = c.st.nprobes
            v = budgeted_probe(c, t, budget)
            if c.stopped:
                return
            if c.moot:
                c.moot = 0
                c.aborted = 0
                c.st.nprobes = logged
                if c.node_cap and c.st.nodes >= c.node_cap:
                    return
                done = 1   # the bounds moved: a new round from them, same budget
                break
            if c.aborted:
                c.aborted = 0   # out of budget: what it proved stays in the table
                continue
            done = 1
            c.version = merge_bound(sh, t, v, &lo, &hi)
            if lo >= hi:
                return
        if not done and budget:
            budget = next_budget(budget)


cdef int value_range(Ctx* c, int32_t* lo, int32_t* hi) noexcept nogil:
    """The range the side's value lies in before any probe; returns 1 if it is
    already exact (``lo == hi``: no trick left)."""
    cdef Pos* p = &c.p
    if c.r.ravage:
        if p.tricks_left == 0:
            lo[0] = hi[0] = ravage_final(p, c.r)
            return 1
        ravage_bounds(p, c.r, lo, hi)
    else:
        if p.tricks_left == 0:
            lo[0] = hi[0] = 0
            return 1
        lo[0] = bound_lo(p, c.r)
        hi[0] = bound_hi(p, c.r)
    return lo[0] >= hi[0]


# -- the Python boundary -------------------------------------------------------------

cdef int _gcd(int a, int b):
    if a < 0:
        a = -a
    if b < 0:
        b = -b
    while b:
        a, b = b, a % b
    return a


cdef class Solver:
    """A search engine with its transposition table (reused across calls).

    ``tt_bytes`` bounds the table's memory (``barbu_dd.solver`` holds the
    default).  Call :meth:`set_rules` with the contract's tables, then
    :meth:`value` / :meth:`probe` on positions.
    """

    cdef Rules rules
    cdef TTEntry* tt
    cdef uint32_t* tags
    cdef uint32_t* fill
    cdef uint64_t tt_mask
    cdef uint32_t gen
    cdef uint64_t* hints
    cdef uint64_t* hints2     # the second thread's refutation memory
    cdef uint32_t* seq        # per bucket: the seqlock's number (two threads)
    cdef int hints2_used
    cdef int hint_shift
    cdef Stats last
    cdef readonly uint64_t last_helper_nodes
    cdef public int threads
    cdef public uint64_t par_after
    cdef readonly size_t tt_bytes
    cdef readonly size_t tt_entries
    cdef readonly size_t hint_bytes
    cdef readonly object rules_id

    def __cinit__(self, size_t tt_bytes):
        cdef size_t buckets = 1, hint_entries
        if tt_bytes < 64 * 1024:
            tt_bytes = 64 * 1024
        while buckets * 2 * (TT_WAYS * (sizeof(TTEntry) + 2 * sizeof(uint32_t)) + sizeof(uint32_t)) \
                <= tt_bytes:
            buckets *= 2
        self.tt = <TTEntry*>calloc(buckets * TT_WAYS, sizeof(TTEntry))
        self.tags = <uint32_t*>calloc(2 * buckets * TT_WAYS, sizeof(uint32_t))
        self.fill = <uint32_t*>calloc(buckets, sizeof(uint32_t))
        # the refutation memory: 8 bytes an entry, a 32nd of the table's bytes, 2^12 to
        # 2^16 entries (512 KiB beside the default table, within a core's cache; 2^20
        # entries with a stronger hash saved 2 % more nodes, but made a node 6.7 %
        # dearer instead of 3.2 %)
        hint_entries = 1 << 12
        while hint_entries < (1 << 16) and 2 * hint_entries * sizeof(uint64_t) * 32 <= tt_bytes:
            hint_entries *= 2
        self.hint_shift = 64 - __builtin_ctzll(hint_entries)
        self.hints = <uint64_t*>calloc(hint_entries, sizeof(uint64_t))
        self.hints2 = <uint64_t*>calloc(hint_entries, sizeof(uint64_t))
        self.seq = <uint32_t*>calloc(buckets, sizeof(uint32_t))
        self.hint_bytes = hint_entries * sizeof(uint64_t)
        if self.tt == NULL or self.tags == NULL or self.fill == NULL or self.hints == NULL \
                or self.hints2 == NULL or self.seq == NULL:
            raise MemoryError(f"cannot allocate a transposition table of {tt_bytes} bytes")
        self.tt_mask = buckets - 1
        self.tt_entries = buckets * TT_WAYS
        self.tt_bytes = self.tt_entries * (sizeof(TTEntry) + 2 * sizeof(uint32_t)) \
            + buckets * sizeof(uint32_t)
        self.gen = 1
        self.threads = 1
        self.par_after = PAR_AFTER
        self.rules_id = None
        memset(&self.rules, 0, sizeof(Rules))
        self.rules.trump = -1
        self.rules.gcd = 1

    def __dealloc__(self):
        free(self.tt)
        free(self.tags)
        free(self.fill)
        free(self.hints)
        free(self.hints2)
        free(self.seq)

    def clear(self):
        """Forget every stored position (O(1): a new generation) and the refutation
        memory (512 KiB at most)."""
        memset(self.hints, 0, self.hint_bytes)
        if self.hints2_used:
            memset(self.hints2, 0, self.hint_bytes)
            self.hints2_used = 0
        self.gen += 1
        if (self.gen & 0xFFFFFF) == 0:
            # the buckets' fill counts keep 24 bits of the generation
            memset(self.tt, 0, self.tt_entries * sizeof(TTEntry))
            memset(self.tags, 0, 2 * self.tt_entries * sizeof(uint32_t))
            memset(self.fill, 0, (self.tt_mask + 1) * sizeof(uint32_t))
            self.gen += 1

    def set_rules(self, card_points, trick_points, *, int trump=-1, bint heart_lead=False,
                  bint king_duty=False, bint trump_duties=False, bint ravage=False,
                  int ravage_penalty=0, object rules_id=None, bint no_more_tricks=True,
                  bint rounds=True, int budget_from=7, bint narrow=True,
                  helper_weights=None):
        """Load a contract: 64 card points, 13 trick points (trick 1..13), the duties.

        Ravage City scores are counted in twelfths of a point (so that -36/k is whole).
        The table is cleared unless ``rules_id`` equals the previous call's.
        ``no_more_tricks=False`` turns off the lone seat's no-more-tricks cut-off,
        ``rounds=False`` the budgeted rounds, ``narrow=False`` the narrow passes before
        each probe (``narrow_search``), ``budget_from`` sets from how many tricks left
        the lone seat's :func:`budget_safe` test is tried (0: never; tests compare the
        search with and without these parts).  ``helper_weights`` (48 numbers): the
        second thread's order for the others against a lone seat (``helper_score``);
        without them it swaps their first two moves (``helper_order``).
        """
        cdef Rules* r = &self.rules
        cdef int i, s, k, g = 0, cls, m, npoint = 0
        if rules_id is not None and rules_id == self.rules_id:
            return
        if len(card_points) != 64 or len(trick_points) != 13:
            raise ValueError("card_points needs 64 entries and trick_points 13")
        memset(r, 0, sizeof(Rules))
        if helper_weights is not None:
            if len(helper_weights) != 48:
                raise ValueError("helper_weights needs 48 entries")
            for i in range(48):
                r.helper_w[i] = helper_weights[i]
            r.helper_on = 1
        for i in range(64):
            r.card_points[i] = card_points[i] if (i & 15) < 13 else 0
            g = _gcd(g, r.card_points[i])
            npoint += r.card_points[i] != 0   # the cards that carry points
        for i in range(13):
            r.trick_points[i + 1] = trick_points[i]
            g = _gcd(g, trick_points[i])
        r.neg_suffix[14] = 0
        r.pos_suffix[14] = 0
        for i in range(13, 0, -1):
            r.neg_suffix[i] = r.neg_suffix[i + 1] + (r.trick_points[i] if r.trick_points[i] < 0 else 0)
            r.pos_suffix[i] = r.pos_suffix[i + 1] + (r.trick_points[i] if r.trick_points[i] > 0 else 0)
        r.trump = trump
        # the lone seat's no-more-tricks test: contracts without trumps or positive
        # points where every trick costs (No Tricks, the Salad) or at most one card
        # carries points (Barbu, No Last Two: full deals 8 % and 30-58 % fewer nodes).
        # In No Hearts and No Queens it saves nodes on endings but costs more on full
        # deals (No Queens deal 7: 16.7 M -> 29.3 M), so it is off there
        # (benchmarks/HISTORY.md).
        r.null_ok = no_more_tricks and trump < 0 and not ravage \
            and all(t <= 0 for t in trick_points) and all(x <= 0 for x in card_points) \
            and (all(t < 0 for t in trick_points)
                 or npoint <= 1)
        # the lone seat's point_safe test: points on one card only (Barbu: full deals
        # 95.1 M -> 56.4 M nodes, deal 41 36.9 M -> 12.0 M).  Where several cards
        # carry points it would apply only to the last ones left, and costs nodes
        # (No Queens deal 3: 58.2 M -> 62.3 M), so it is off there.
        r.point_ok = no_more_tricks and trump < 0 and not ravage \
            and all(t == 0 for t in trick_points) and all(x <= 0 for x in card_points) \
            and npoint == 1
        # the same tests in a trick in progress (lone_safe_in_trick): not where only
        # tricks count, every one of them costing (No Tricks), where they cut no
        # nodes (twenty 10-card endings) and cost 10 % more instructions a node
        r.mid_ok = (r.null_ok or r.point_ok) and (
            any(card_points[i] for i in range(64) if (i & 15) < 13)
            or not all(t < 0 for t in trick_points))
        # the lone seat's budget test (budget_safe): points on cards only, on two to
        # four of them (No Queens: deal 0 147.5 M -> 93.6 M nodes; in No Hearts, where
        # avoiding one heart rarely matters, it was neutral, twenty deals)
        r.budget_from = budget_from if (
            no_more_tricks and trump < 0 and not ravage
            and all(t == 0 for t in trick_points) and all(x <= 0 for x in card_points)
            and 2 <= npoint <= 4) else 0
        r.heart_lead = heart_lead
        r.king_duty = king_duty
        r.trump_duties = trump_duties and trump >= 0
        r.ravage = ravage
        if ravage:
            for k in range(1, 5):
                r.ravage_share[k] = ravage_penalty * 12 // k
            g = abs(ravage_penalty) if ravage_penalty else 1
            for i in range(64):
                r.card_points[i] = 0
            for i in range(15):
                r.neg_suffix[i] = 0
                r.pos_suffix[i] = 0
        r.gcd = g if g > 0 else 1
        r.positive = (sum(card_points[i] for i in range(64) if (i & 15) < 13) + sum(trick_points)) > 0
        r.rounds_ok = rounds and not r.positive
        # narrow passes (narrow_search): where tricks cost, but not with the points on
        # one card (Barbu: most of its solves are the seat's proof that it keeps the
        # card, which the passes only delay: fifty deals +13 % nodes), nor on more than
        # four cards (No Hearts: the others' first moves fail more often there, and
        # the passes cost more than they save, the median +13 %; the Salad: even)
        r.narrow_ok = narrow and not r.positive and not r.point_ok and not ravage \
            and npoint <= 4
        # the move order reads (and the search keeps) the history heuristic only
        # where tricks are worth winning and trumping is free (see gen_moves)
        r.use_hist = r.positive and not r.trump_duties
        r.qt_ok = 0
        if not ravage and trick_points[0] > 0:
            r.qt_ok = 1
            r.qt_value = trick_points[0]
            for i in range(13):
                if trick_points[i] != trick_points[0]:
                    r.qt_ok = 0
            for i in range(64):
                if r.card_points[i] < 0:
                    r.qt_ok = 0
        # classes: cards are equivalent only with equal points (and not the K♥ under duty)
        for i in range(64):
            r.card_class[i] = r.card_points[i] * 2
            if r.card_points[i] != 0:
                r.point_cards |= (<uint64_t>1) << i
        if king_duty:
            r.card_class[KH_CARD] = r.card_points[KH_CARD] * 2 + 1
        for s in range(4):
            if r.trump_duties and s == trump:
                r.special[s] = SUIT_BITS
            syms = []
            for k in range(13):
                cls = r.card_class[16 * s + k]
                if cls not in syms:
                    syms.append(cls)
            m = len(syms)
            if m == 1:
                r.sym_mode[s] = 0
            elif m <= 4:
                r.sym_mode[s] = 1
                for k in range(13):
                    cls = syms.index(r.card_class[16 * s + k])
                    if cls & 1:
                        r.sym_plane[s][0] |= (<uint64_t>1) << k
                    if cls & 2:
                        r.sym_plane[s][1] |= (<uint64_t>1) << k
            else:
                r.sym_mode[s] = 2
                r.special[s] = SUIT_BITS
            for k in range(1, 14):
                # mode 2: the suit's whole mask; else the top k cards of both planes
                m = (1 << k) - 1
                r.cls_mask[s][k] = <uint32_t>0xFFFFFFFF if r.sym_mode[s] == 2 else m | (m << 13)
        for s in range(2):
            for k in range(14):
                for m in range(14):
                    r.cls_mask2[s][k | (m << 4)] = r.cls_mask[2 * s][k] \
                        | (<uint64_t>r.cls_mask[2 * s + 1][m] << 32)
        self.rules_id = rules_id
        self.clear()

    cdef int _load(self, Ctx* c, hands, trick, int leader, int side, won=None) except -1:
        cdef Pos* p = &c.p
        cdef int i, card, mover
        cdef int32_t pt
        if len(hands) != 4 or len(trick) > 3 or not 0 <= leader <= 3:
            raise ValueError("bad position")
        if not 0 <= side <= 15:
            raise ValueError("bad side")
        memset(c, 0, sizeof(Ctx))
        c.r = &self.rules
        c.tt = self.tt
        c.tags = self.tags
        c.fill = self.fill
        c.tt_mask = self.tt_mask
        c.gen = self.gen
        c.hints = self.hints
        c.hint_shift = self.hint_shift
        for i in range(4):
            p.hand[i] = <uint64_t>hands[i]
        p.leader = leader
        p.side = side
        p.ntrick = 0
        p.win_idx = 0
        for i in range(len(trick)):
            card = trick[i]
            p.trick_card[i] = card
            if i > 0 and beats(&self.rules, card, p.trick_card[p.win_idx]):
                p.win_idx = i
            p.ntrick = i + 1
        if won is not None:
            # Ravage City: the cards of each suit each seat won in earlier tricks
            if len(won) != 4 or any(len(row) != 4 for row in won):
                raise ValueError("won needs 4 rows of 4 counts")
            for i in range(4):
                for card in range(4):
                    if not 0 <= won[i][card] <= 13:
                        raise ValueError("bad count of cards won")
                    p.won[i][card] = <uint8_t>won[i][card]
        mover = (leader + p.ntrick) & 3
        p.tricks_left = __builtin_popcountll(p.hand[mover])
        if p.tricks_left > 13:
            raise ValueError("bad position")
        for i in range(64):
            if (i & 15) < 13:
                pt = self.rules.card_points[i]
                if (p.hand[0] | p.hand[1] | p.hand[2] | p.hand[3] | trick_mask(p)) >> i & 1:
                    if pt < 0:
                        p.pts_neg += pt
                    else:
                        p.pts_pos += pt
        return 0

    def value(self, hands, trick, int leader, int side, won=None):
        """The exact value of ``side`` (a 4-bit seat mask) in the position.

        ``won`` (Ravage City): the cards of each suit (S H D C) each seat has won
        in earlier tricks, 4 rows of 4.  Returns ``(value, nodes, tt_hits)``.
        """
        cdef Ctx c
        cdef int32_t v, hi
        self._load(&c, hands, trick, leader, side, won)
        self.last_helper_nodes = 0
        if self.threads >= 2:
            v, hi, n, hits = self._value_par(&c, hands, trick, leader, side, won, 0.0)
            return v, n, hits
        caught = catch_sigint()
        try:
            with nogil:
                v = solve_value(&c, &hi)
        finally:
            release_sigint(caught)
        self.last = c.st
        return v, c.st.nodes, c.st.tt_hits

    def _help(self, size_t ctx):
        """The second thread's part of ``_value_par``."""
        cdef Ctx* h = <Ctx*>ctx
        with nogil:
            if h.limited:
                par_limited(h, h.sh)
            else:
                par_value(h, h.sh)

    cdef object _value_par(self, Ctx* c, hands, trick, int leader, int side, won,
                           double deadline):
        """``value`` with a second thread on the same table (``par_value``), or
        ``value_bounds`` under a time limit (``deadline``, CLOCK_MONOTONIC seconds;
        ``par_limited``): the first thread searches alone for ``par_after`` nodes (0:
        none), then the second joins.  Returns ``(lo, hi, nodes, tt_hits)``; nodes and
        table hits are both threads' (``last_helper_nodes``: the second's)."""
        cdef int32_t lo, hi, v
        cdef Shared* sh
        cdef Ctx* h
        cdef uint64_t start
        cdef bint limited = deadline > 0
        c.st.nprobes = 0
        if value_range(c, &lo, &hi):
            self.last = c.st
            return lo, hi, c.st.nodes, c.st.tt_hits
        # each on a cache line of its own: the threads write their contexts at every node
        sh = <Shared*>aligned_alloc(64, 64)
        h = <Ctx*>aligned_alloc(64, (sizeof(Ctx) + 63) // 64 * 64)
        if sh == NULL or h == NULL:
            free(sh)
            free(h)
            raise MemoryError("cannot allocate a search thread's state")
        caught = catch_sigint()
        try:
            memset(sh, 0, sizeof(Shared))
            sh.lo = lo
            sh.hi = hi
            c.sh = sh
            c.seq = self.seq
            if limited:
                c.limited = 1
                c.deadline = deadline
            if self.par_after:
                c.node_cap = self.par_after
                with nogil:
                    if limited:
                        par_limited(c, sh)
                    else:
                        par_value(c, sh)
            if sh.lo < sh.hi and not c.stopped:
                c.node_cap = 0
                self._load(h, hands, trick, leader, side, won)
                h.sh = sh
                h.seq = self.seq
                h.helper = 1
                h.hints = self.hints2
                h.limited = c.limited
                h.want = c.want
                h.deadline = c.deadline
                self.hints2_used = 1
                start = c.st.nodes
                h.st.nodes = start   # the table's replacement ages count nodes
                worker = threading.Thread(target=self._help, args=(<size_t>h,), daemon=True)
                worker.start()
                with nogil:
                    if limited:
                        par_limited(c, sh)
                    else:
                        par_value(c, sh)
                worker.join()
                self.last_helper_nodes = h.st.nodes - start
                c.st.tt_hits += h.st.tt_hits
            self.last = c.st
            return sh.lo, sh.hi, c.st.nodes + self.last_helper_nodes, c.st.tt_hits
        finally:
            free(sh)
            free(h)
            release_sigint(caught)

    def value_bounds(self, hands, trick, int leader, int side, won=None, *,
                     uint64_t max_nodes=0, double seconds=0.0, int want=0):
        """``value`` under a limit: the search stops after ``max_nodes`` nodes or
        ``seconds`` seconds (0: no limit), and what it proved is returned as
        ``(lo, hi, nodes, tt_hits)``: the side's value lies in ``lo..hi`` (``lo ==
        hi``: the exact value).  The table keeps only finished results, so a later
        call goes on from what this one proved.  ``want`` spends the limit on one
        bound: 1 raising the lower, 2 lowering the upper (0: both)."""
        cdef Ctx c
        cdef int32_t lo, hi
        if not 0 <= want <= 2:
            raise ValueError("want must be 0 (both bounds), 1 (the lower) or 2 (the upper)")
        self._load(&c, hands, trick, leader, side, won)
        c.want = want
        self.last_helper_nodes = 0
        if self.threads >= 2 and seconds > 0 and not max_nodes:
            # a time limit alone: two threads (a node limit stays in one, repeatable)
            return self._value_par(&c, hands, trick, leader, side, won,
                                   mono_seconds() + seconds)
        if max_nodes or seconds > 0:
            c.limited = 1
            c.stop_nodes = max_nodes
            if seconds > 0:
                c.deadline = mono_seconds() + seconds
        caught = catch_sigint()
        try:
            with nogil:
                lo = solve_value(&c, &hi)
        finally:
            release_sigint(caught)
        self.last = c.st
        return lo, hi, c.st.nodes, c.st.tt_hits

    def value_after(self, hands, trick, int leader, int side, int card, won=None, *,
                    double seconds=0.0, uint64_t max_nodes=0):
        """The side's value after the seat to move plays ``card`` (a legal card),
        the points of a trick it completes included.  Returns ``(lo, hi, nodes)``:
        the value lies in ``lo..hi``, one value unless ``seconds`` (> 0) or
        ``max_nodes`` (> 0) stopped the search first (as in ``value_bounds``, one
        thread)."""
        cdef Ctx c
        cdef int32_t lo, got, hi
        cdef int seat
        self._load(&c, hands, trick, leader, side, won)
        seat = (leader + c.p.ntrick) & 3
        if not (c.p.hand[seat] >> card) & 1:
            raise ValueError("card not held by the seat to move")
        if max_nodes or seconds > 0:
            c.limited = 1
            c.stop_nodes = max_nodes
            if seconds > 0:
                c.deadline = mono_seconds() + seconds
        caught = catch_sigint()
        try:
            with nogil:
                got = play_card(&c.p, &self.rules, seat, card)
                lo = solve_value(&c, &hi)
        finally:
            release_sigint(caught)
        self.last = c.st
        return got + lo, got + hi, c.st.nodes

    def probe(self, hands, trick, int leader, int side, int target, won=None, cap=0):
        """One null-window probe at ``target``: ``(bound, nodes)``, the fail-soft
        bound that search proved (``bound >= target``: the side scores at least
        ``bound``; otherwise at most ``bound``).  ``bound >= target`` answers
        whether the side can score at least ``target``; benchmarks/probes.py
        profiles the probes of a solve with it.  With ``cap`` > 0 the probe gives
        up after that many nodes and returns ``(None, nodes)`` (what it finished
        stays in the table, as under a solve's node limit)."""
        cdef Ctx c
        cdef int32_t v
        cdef uint64_t rel
        if cap < 0:
            raise ValueError("cap must be 0 (none) or positive")
        self._load(&c, hands, trick, leader, side, won)
        if cap:
            c.limited = 1
            c.stop_nodes = cap
        caught = catch_sigint()
        try:
            with nogil:
                v = narrow_search(&c, target, &rel)
        finally:
            release_sigint(caught)
        self.last = c.st
        if c.stopped:
            return None, c.st.nodes
        return int(v), c.st.nodes

    def legal(self, hands, trick, int leader):
        """The mask of legal cards of the seat to move."""
        cdef Ctx c
        self._load(&c, hands, trick, leader, 0)
        return legal_mask(&c.p, &self.rules, (leader + c.p.ntrick) & 3)

    def helper_scores(self, hands, trick, int leader, int lone):
        """The second thread's score (``helper_score``) of the top card of each group of
        :meth:`groups`, the seat to move being one of the others against ``lone``
        (tests compare it with ``benchmarks/helper_order.py``)."""
        cdef Ctx c
        cdef int32_t v
        cdef int seat, ws, card
        self._load(&c, hands, trick, leader, 1 << lone)
        seat = (leader + c.p.ntrick) & 3
        if seat == lone or not self.rules.helper_on:
            raise ValueError("the seat to move is the lone seat, or the contract has no helper order")
        out = []
        for g in self.groups(hands, trick, leader):
            card = g[0]
            ws = est_trick_neg(&c.p, &self.rules, seat, card, &v)
            v += self.rules.trick_points[14 - c.p.tricks_left]
            out.append(helper_score(&c.p, &self.rules, seat, lone, card, v if ws == lone else 0, ws))
        return out

    def groups(self, hands, trick, int leader):
        """The legal cards of the seat to move, as groups of equivalent cards (high first)."""
        cdef Ctx c
        cdef uint64_t legal, present
        cdef int s, rk, prev, card
        cdef uint32_t L, P
        self._load(&c, hands, trick, leader, 0)
        legal = legal_mask(&c.p, &self.rules, (leader + c.p.ntrick) & 3)
        present = c.p.hand[0] | c.p.hand[1] | c.p.hand[2] | c.p.hand[3] | trick_mask(&c.p)
        out = []
        for s in range(4):
            L = <uint32_t>((legal >> (16 * s)) & SUIT_BITS)
            P = <uint32_t>((present >> (16 * s)) & SUIT_BITS)
            prev = -1
            while L:
                rk = high_bit(<uint64_t>L)
                L &= ~(<uint32_t>1 << rk)
                card = 16 * s + rk
                if joins_group(&self.rules, P, s, prev, rk):
                    out[len(out) - 1].append(card)
                else:
                    out.append([card])
                prev = rk
        return out

    @property
    def gcd(self):
        """Every score of the loaded contract is a multiple of this."""
        return self.rules.gcd

    @property
    def last_stats(self):
        """Counters of the last call: nodes, tt_hits, tt_stores, ..., and
        ``probes``: the null-window probes of a ``value`` call in the order made,
        ``(target, bound, nodes)`` each (``bound >= target``: the side scores at
        least ``bound``; otherwise at most ``bound``)."""
        return {"nodes": self.last.nodes, "tt_hits": self.last.tt_hits,
                "tt_stores": self.last.tt_stores, "trick_nodes": self.last.trick_nodes,
                "cut_at": [[self.last.cut_at[a][b] for b in range(4)] for a in range(4)],
                "allnodes": [self.last.allnodes[a] for a in range(4)],
                "by_left": [self.last.by_left[a] for a in range(14)],
                "null_cuts": self.last.null_cuts, "rounds": self.last.rounds,
                "narrow_proofs": self.last.narrow_proofs,
                "probes": [(self.last.probe_target[i], self.last.probe_bound[i],
                            self.last.probe_nodes[i]) for i in range(self.last.nprobes)]}
