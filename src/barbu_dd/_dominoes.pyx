# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The Dominoes / Réussite search of barbu-dd (private: use :mod:`barbu_dd.dominoes`).

For one seat X at a time (SPEC §5): the best finishing place X can guarantee when X
maximises the points of its place and the three others, as one team, minimise them.

The state is the cards on the table and the seat to move: every card off the table
is still held by the seat that held it in the position given, so the hands, the
seats already out and hence X's place follow from the table.  The place values are
replaced by their index among the contract's distinct values (at most four), so the
answer is found by two null-window searches ("can X get at least this?"), MTD-style.

Speed comes from:

- a transposition table keyed exactly by (table, seat to move, X), with a lower and
  an upper bound and the best card, in buckets of four 16-byte entries, emptied in
  O(1) by a generation counter;
- race bounds: a card next to a run stays playable until played, so a seat whose
  cards it can all reach without help (from the table, through its own cards) is
  sure to go out within as many of its turns as it has cards, and no seat goes out
  in fewer turns than its cards (less its Aces, with ace replays).  From these, the
  opponents sure to go out before X, and those that possibly can, bound X's place
  (X cannot be caught / X can no longer finish ahead);
- move ordering: the table's best card first, then cards that free the mover's own
  next card (and Aces, with replays), cards that free the enemy's last;
- spare cards: when the mover holds every card from a playable card to the end of
  its suit, playing from that chain never frees anyone else's card, so all such
  cards of the mover are interchangeable and only one is tried (not with an Ace in
  the chain under ace replays);
- a forced card (one playable card) is played through without a table entry;
- the table lives in an anonymous mapping advised for huge pages: zero pages are
  faulted in only where written, and probes (random accesses) miss the TLB less.

Cards are numbered in *internal lanes*: 16 * suit + place in the run order, so that
with low Aces the Ace is place 0 (a lane is rotated once, on the way in).  Passing
and the skipping of seats that are out are not nodes: the search goes straight to
the next seat with a playable card.
"""

from libc.stdint cimport int8_t, uint8_t, uint16_t, uint64_t
from libc.stdint cimport uintptr_t
from libc.string cimport memset
from posix.mman cimport (
    MADV_HUGEPAGE, MAP_ANONYMOUS, MAP_FAILED, MAP_PRIVATE, PROT_READ, PROT_WRITE, madvise, mmap,
    munmap,
)


cdef extern from *:
    int __builtin_ctzll(unsigned long long) nogil
    int __builtin_clzll(unsigned long long) nogil


cdef enum:
    LANE = 0x1FFF
    DTT_WAYS = 4          # entries a bucket (one 64-byte cache line)
    NO_CARD = 255
    MAX_MOVES = 8         # two ends a suit
    NEVER = 1000          # a turn that never comes
    NO_LOWER = -100       # a lower bound that says nothing
    NO_UPPER = 100        # an upper bound that says nothing

# Move-ordering weights: a card that frees the next card of ...
cdef enum:
    ORD_OWN = 4               # ... the mover itself
    ORD_X_FREES_OPP = -4      # ... an opponent, X moving
    ORD_OPP_FREES_X = -8      # ... X, an opponent moving
    ORD_OPP_FREES_OPP = 1     # ... a team-mate, an opponent moving
    ORD_ACE = 6               # an Ace, with ace replays (another play at once)

# Error codes of :meth:`DominoSolver.solve_position` (mapped to exceptions by the wrapper).
cdef enum:
    ERR_DUPLICATE = -1    # a card held by two seats (detail: the card)
    ERR_LAYOUT = -2       # a suit on the table is not one run holding the start (detail: suit)
    ERR_ARGS = -3         # bad arguments (detail: 0)

ERRORS = {ERR_DUPLICATE: "duplicate", ERR_LAYOUT: "layout", ERR_ARGS: "arguments"}

cdef inline int popcount(uint64_t x) noexcept nogil:
    """Set bits (SWAR: no libgcc call without -mpopcnt)."""
    x = x - ((x >> 1) & <uint64_t>0x5555555555555555)
    x = (x & <uint64_t>0x3333333333333333) + ((x >> 2) & <uint64_t>0x3333333333333333)
    x = (x + (x >> 4)) & <uint64_t>0x0F0F0F0F0F0F0F0F
    return <int>((x * <uint64_t>0x0101010101010101) >> 56)


cdef uint64_t ALL_CARDS = (<uint64_t>LANE) | (<uint64_t>LANE << 16) | (<uint64_t>LANE << 32) | (<uint64_t>LANE << 48)


# -- the table ---------------------------------------------------------------------

cdef inline uint64_t playable(uint64_t table, int start) noexcept nogil:
    """The cards that may be played next on ``table`` (whoever holds them)."""
    cdef uint64_t m = 0, t, lo
    cdef int s
    for s in range(4):
        t = (table >> (16 * s)) & LANE
        if t == 0:
            m |= (<uint64_t>1 << start) << (16 * s)
        else:
            lo = t & (~t + 1)
            m |= (((lo >> 1) | (t + lo)) & LANE) << (16 * s)
    return m


cdef inline uint64_t lane_reach(uint64_t t, uint64_t h, int start) noexcept nogil:
    """The cards of a suit holding ``h`` its holder can play with no help from the
    others, the suit's run on the table being ``t`` (one lane)."""
    cdef uint64_t lo, m, z, r = 0
    if t == 0:
        lo = <uint64_t>1 << start
        if not (h & lo):
            return 0
        r = lo
        t = lo
    else:
        lo = t & (~t + 1)
    # upwards: the run of h's cards from just above the run (h + up clears exactly it)
    r |= h & ~(h + t + lo) & ~t
    # downwards: h's cards from just below the run down to the first hole
    m = lo - 1
    z = m & ~h
    if z == 0:
        r |= m
    else:
        r |= m & ~((<uint64_t>2 << (63 - __builtin_clzll(z))) - 1)
    return r


cdef inline uint64_t pack_table(uint64_t t) noexcept nogil:
    """The 52 table bits side by side (13 a suit)."""
    return (t & LANE) | ((t >> 3) & (<uint64_t>LANE << 13)) | ((t >> 6) & (<uint64_t>LANE << 26)) \
        | ((t >> 9) & (<uint64_t>LANE << 39))


cdef inline int next_seat(const DSearch* s, int m) noexcept nogil:
    """The next seat clockwise after ``m`` that holds cards (X always does)."""
    m = (m + 1) & 3
    while s.hands[m] == 0:
        m = (m + 1) & 3
    return m


# -- bounds ------------------------------------------------------------------------

cdef inline void race(const DSearch* s, int mover, int* plo, int* phi) noexcept nogil:
    """The range of places X can still get, from the seats' turns.

    A turn is counted as 4 * (n - 1) + offset for the n-th turn from now of the seat
    ``offset`` places after the mover.  A seat goes out no sooner than its turn
    ``cards`` (``cards - aces`` with ace replays) and, when every card it holds is
    within its own reach, no later than its turn ``cards``.
    """
    cdef int j, n, e, off, certain = 0, possible = 0, ex, gx
    cdef uint64_t h
    cdef int et[4]
    cdef int cnt[4]
    cdef uint64_t aces = (<uint64_t>1 << s.ace) * <uint64_t>0x0001000100010001
    for j in range(4):
        h = s.hands[j]
        if h == 0:
            continue
        n = popcount(h)
        cnt[j] = n
        off = (j - mover) & 3
        e = n
        if s.replays:
            e = n - popcount(h & aces)
            if e < 1:
                e = 1
        et[j] = 4 * (e - 1) + off
    ex = et[s.seat]
    h = s.hands[s.seat]
    gx = 4 * (cnt[s.seat] - 1) + ((s.seat - mover) & 3) if reach(s, h) == h else NEVER
    for j in range(4):
        if j == s.seat or s.hands[j] == 0:
            continue
        if et[j] < gx:
            possible += 1
        # the latest turn j goes out, when all its cards are within its own reach
        e = 4 * (cnt[j] - 1) + ((j - mover) & 3)
        if e < ex and reach(s, s.hands[j]) == s.hands[j]:
            certain += 1
    plo[0] = s.nout + 1 + certain
    phi[0] = s.nout + 1 + possible


cdef inline uint64_t reach(const DSearch* s, uint64_t h) noexcept nogil:
    """The cards of hand ``h`` its holder can play with no help from the others."""
    cdef uint64_t r = 0
    cdef int su
    for su in range(4):
        r |= lane_reach((s.table >> (16 * su)) & LANE, (h >> (16 * su)) & LANE,
                        s.start) << (16 * su)
    return r


cdef inline bint is_spare(const DSearch* s, int mover, int c) noexcept nogil:
    """Whether ``c`` starts a *spare* chain of the mover: the mover holds every card
    from it to the end of the suit, so playing from it never frees a card of another
    seat.  Any two spare cards are interchangeable (only how many are left matters),
    except in a chain holding an Ace under ace replays."""
    cdef int su = c >> 4, r = c & 15
    cdef uint64_t t = (s.table >> (16 * su)) & LANE
    cdef uint64_t own = (s.hands[mover] >> (16 * su)) & LANE
    cdef uint64_t chain
    if t == 0:
        chain = LANE
    elif (<uint64_t>1 << r) < t:
        chain = (<uint64_t>2 << r) - 1
    else:
        chain = LANE & ~((<uint64_t>1 << r) - 1)
    if (own & chain) != chain:
        return False
    return not (s.replays and ((chain >> s.ace) & 1))


# -- move ordering -----------------------------------------------------------------

cdef inline int order_score(const DSearch* s, int mover, int c) noexcept nogil:
    """How promising playing card ``c`` looks for the mover (higher first)."""
    cdef int su = c >> 4, r = c & 15, sc = 0, k, u, o, nu = 0
    cdef uint64_t t = (s.table >> (16 * su)) & LANE
    cdef int freed[2]
    if t == 0:
        if r > 0:
            freed[nu] = r - 1
            nu += 1
        if r < 12:
            freed[nu] = r + 1
            nu += 1
    elif (<uint64_t>1 << r) < t:
        if r > 0:
            freed[nu] = r - 1
            nu += 1
    elif r < 12:
        freed[nu] = r + 1
        nu += 1
    for k in range(nu):
        u = freed[k]
        o = s.own[16 * su + u]
        if o < 0:
            continue
        if o == mover:
            sc += ORD_OWN
        elif mover == s.seat:
            sc += ORD_X_FREES_OPP
        elif o == s.seat:
            sc += ORD_OPP_FREES_X
        else:
            sc += ORD_OPP_FREES_OPP
    if s.replays and r == s.ace:
        sc += ORD_ACE
    return sc


# -- transposition table -----------------------------------------------------------

cdef inline DTTEntry* tt_find(DSearch* s, uint64_t key) noexcept nogil:
    cdef DTTEntry* e = s.tt + ((key * <uint64_t>0x9E3779B97F4A7C15) >> s.tt_shift) * DTT_WAYS
    cdef int w
    for w in range(DTT_WAYS):
        if e[w].key == key and e[w].gen == s.gen:
            return &e[w]
    return NULL


cdef inline void tt_store(DSearch* s, uint64_t key, int lower, int upper, int best,
                          uint64_t work) noexcept nogil:
    cdef DTTEntry* e = s.tt + ((key * <uint64_t>0x9E3779B97F4A7C15) >> s.tt_shift) * DTT_WAYS
    cdef DTTEntry* victim = NULL
    cdef int w, lw = 0
    while work > 1:
        work >>= 1
        lw += 1
    for w in range(DTT_WAYS):
        if e[w].key == key and e[w].gen == s.gen:
            if lower > e[w].lower:
                e[w].lower = <int8_t>lower
            if upper < e[w].upper:
                e[w].upper = <int8_t>upper
            e[w].best = <uint8_t>best
            if lw > e[w].work:
                e[w].work = <uint8_t>lw
            return
    for w in range(DTT_WAYS):
        if e[w].gen != s.gen:
            victim = &e[w]
            break
        if victim == NULL or e[w].work < victim.work:
            victim = &e[w]
    victim.key = key
    victim.gen = s.gen
    victim.lower = <int8_t>lower
    victim.upper = <int8_t>upper
    victim.best = <uint8_t>best
    victim.work = <uint8_t>lw


# -- the search --------------------------------------------------------------------

cdef int child(DSearch* s, int mover, int c, int alpha, int beta) noexcept nogil:
    """The value after the mover plays card ``c``."""
    cdef uint64_t bit = <uint64_t>1 << c
    cdef int v, nxt
    s.hands[mover] ^= bit
    s.table |= bit
    if s.hands[mover] == 0:
        s.nout += 1
        if mover == s.seat:
            v = s.val[s.nout - 1]
        elif s.nout >= 3:
            v = s.val[3]
        else:
            v = search(s, next_seat(s, mover), alpha, beta)
        s.nout -= 1
    else:
        if s.replays and (c & 15) == s.ace and (s.hands[mover] & playable(s.table, s.start)):
            nxt = mover
        else:
            nxt = next_seat(s, mover)
        v = search(s, nxt, alpha, beta)
    s.hands[mover] ^= bit
    s.table ^= bit
    return v


cdef int search(DSearch* s, int mover, int alpha, int beta) noexcept nogil:
    """The value for X (fail-soft alpha-beta): X has cards, fewer than 3 seats are out."""
    cdef uint64_t play, moves, key, x, nodes0
    cdef int k, plo, phi, lo_v, hi_v, a, b, best, bestcard, hint, n, i, j, c, v, sc, maxi, spare
    cdef int cards[MAX_MOVES]
    cdef int scores[MAX_MOVES]
    cdef DTTEntry* e
    s.st.nodes += 1
    nodes0 = s.st.nodes
    play = playable(s.table, s.start)
    moves = s.hands[mover] & play
    while moves == 0:
        mover = next_seat(s, mover)
        moves = s.hands[mover] & play
    k = s.nout
    if s.rmax[k][3] <= alpha:
        return s.rmax[k][3]
    if s.rmin[k][3] >= beta:
        return s.rmin[k][3]
    if (moves & (moves - 1)) == 0:
        # a forced card: no table entry (the next choice has one)
        s.st.single += 1
        return child(s, mover, __builtin_ctzll(moves), alpha, beta)
    key = pack_table(s.table) | (<uint64_t>mover << 52) | (<uint64_t>s.seat << 54)
    e = tt_find(s, key)
    a = alpha
    b = beta
    hint = NO_CARD
    if e != NULL:
        if e.lower >= beta:
            s.st.tt_hits += 1
            return e.lower
        if e.upper <= alpha:
            s.st.tt_hits += 1
            return e.upper
        if e.lower == e.upper:
            s.st.tt_hits += 1
            return e.lower
        if e.lower > a:
            a = e.lower
        if e.upper < b:
            b = e.upper
        hint = e.best
    else:
        race(s, mover, &plo, &phi)
        lo_v = s.rmin[plo - 1][phi - 1]
        hi_v = s.rmax[plo - 1][phi - 1]
        if hi_v <= alpha or lo_v == hi_v:
            s.st.bound_cuts += 1
            return hi_v
        if lo_v >= beta:
            s.st.bound_cuts += 1
            return lo_v
    # the moves, best first
    n = 0
    x = moves
    spare = 0
    while x:
        c = __builtin_ctzll(x)
        x &= x - 1
        if is_spare(s, mover, c):
            if spare:
                continue
            spare = 1
        sc = 1000 if c == hint else order_score(s, mover, c)
        j = n
        while j > 0 and scores[j - 1] < sc:
            cards[j] = cards[j - 1]
            scores[j] = scores[j - 1]
            j -= 1
        cards[j] = c
        scores[j] = sc
        n += 1
    maxi = mover == s.seat
    alpha = a
    beta = b
    bestcard = cards[0]
    if maxi:
        best = NO_LOWER
        for i in range(n):
            v = child(s, mover, cards[i], alpha, beta)
            if v > best:
                best = v
                bestcard = cards[i]
                if best >= beta:
                    if i == 0:
                        s.st.cut_first += 1
                    else:
                        s.st.cut_later += 1
                    break
                if best > alpha:
                    alpha = best
    else:
        best = NO_UPPER
        for i in range(n):
            v = child(s, mover, cards[i], alpha, beta)
            if v < best:
                best = v
                bestcard = cards[i]
                if best <= alpha:
                    if i == 0:
                        s.st.cut_first += 1
                    else:
                        s.st.cut_later += 1
                    break
                if best < beta:
                    beta = best
    if best <= a:
        tt_store(s, key, NO_LOWER, best, bestcard, s.st.nodes - nodes0 + 1)
    elif best >= b:
        tt_store(s, key, best, NO_UPPER, bestcard, s.st.nodes - nodes0 + 1)
    else:
        tt_store(s, key, best, best, bestcard, s.st.nodes - nodes0 + 1)
    return best


cdef int solve_seat(DSearch* s, int mover) noexcept nogil:
    """X's exact value (an index into the distinct place values), by bisection."""
    cdef int lo, hi, mid, g
    if s.hands[s.seat] == 0:
        return -1
    if s.nout >= 3:
        return s.val[3]
    if s.hands[mover] == 0:
        mover = next_seat(s, mover)
    lo = s.rmin[s.nout][3]
    hi = s.rmax[s.nout][3]
    while lo < hi:
        mid = (lo + hi + 1) // 2
        g = search(s, mover, mid - 1, mid)
        if g >= mid:
            lo = g if g < hi else hi
        else:
            hi = g if g > lo else lo
    return lo


# -- the Python entry point ----------------------------------------------------------

cdef inline uint64_t to_lanes(uint64_t mask, bint low_aces) noexcept nogil:
    """A card mask in internal lanes (low Aces: the Ace moves from place 12 to 0)."""
    cdef uint64_t out = 0, lane
    cdef int su
    if not low_aces:
        return mask & ALL_CARDS
    for su in range(4):
        lane = (mask >> (16 * su)) & LANE
        lane = ((lane << 1) | (lane >> 12)) & LANE
        out |= lane << (16 * su)
    return out


cdef inline int from_lane_card(int c, bint low_aces) noexcept nogil:
    if not low_aces:
        return c
    return (c & ~15) | (((c & 15) + 12) % 13)


cdef class DominoSolver:
    """The Dominoes search with its transposition table (reused across calls).

    ``tt_bytes`` bounds the table's memory (rounded down to a power of two of
    buckets, at least 64 KiB).
    """

    cdef DTTEntry* tt
    cdef void* map_base
    cdef size_t map_size
    cdef int tt_shift
    cdef readonly size_t tt_entries
    cdef readonly size_t tt_bytes
    cdef uint16_t gen
    cdef object context
    cdef DStats last

    def __cinit__(self, size_t tt_bytes=64 * 1024 * 1024):
        cdef size_t buckets = 1
        cdef int bits = 0
        if tt_bytes < 64 * 1024:
            tt_bytes = 64 * 1024
        while buckets * 2 * DTT_WAYS * sizeof(DTTEntry) <= tt_bytes:
            buckets *= 2
            bits += 1
        cdef size_t size = buckets * DTT_WAYS * sizeof(DTTEntry)
        cdef size_t huge = 2 * 1024 * 1024
        cdef void* mem
        # An anonymous mapping: zero pages, faulted in only where the search writes
        # (a small search touches little), 2 MiB aligned and backed by huge pages
        # where the kernel allows (a probe is a random access: fewer TLB misses).
        self.map_size = size + huge
        mem = mmap(NULL, self.map_size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
        if mem == MAP_FAILED:
            self.map_base = NULL
            raise MemoryError(f"cannot allocate a transposition table of {tt_bytes} bytes")
        self.map_base = mem
        mem = <void*>((<uintptr_t>mem + huge - 1) & ~(<uintptr_t>huge - 1))
        madvise(mem, size, MADV_HUGEPAGE)
        self.tt = <DTTEntry*>mem
        self.tt_shift = 64 - bits if bits > 0 else 63
        self.tt_entries = buckets * DTT_WAYS
        self.tt_bytes = self.tt_entries * sizeof(DTTEntry)
        self.gen = 1
        self.context = None
        memset(&self.last, 0, sizeof(DStats))

    def __dealloc__(self):
        if self.map_base != NULL:
            munmap(self.map_base, self.map_size)

    def clear(self):
        """Forget every stored position (O(1): a new generation)."""
        self.gen += 1
        if self.gen == 0:
            memset(self.tt, 0, self.tt_entries * sizeof(DTTEntry))
            self.gen = 1
        self.context = None

    @property
    def stats(self):
        """Counters of the last call: nodes, table cut-offs, race-bound cut-offs."""
        return {"nodes": self.last.nodes, "tt_hits": self.last.tt_hits,
                "bound_cuts": self.last.bound_cuts, "cut_first": self.last.cut_first,
                "cut_later": self.last.cut_later, "single": self.last.single}

    def solve_position(self, hands, int mover, int start, bint low_aces, bint ace_replays,
                       places, int seats=15):
        """Each asked seat's value: ``(code, detail, values, nodes)``.

        ``hands``: four card masks (16 * suit + rank); the table is every other card.
        ``mover``: the seat to move (skipped while it has no cards).  ``start``: the
        starting rank (0..12).  ``places``: the points of places 1..4.  ``seats``:
        bit i asks for seat i.  ``values[i]`` is the points of seat i's guaranteed
        place, ``None`` if not asked or already out.  ``code`` < 0 is an error
        (``ERRORS``), ``detail`` the card or suit at fault; then ``values`` is empty.
        """
        cdef DSearch s
        cdef uint64_t h[4]
        cdef uint64_t held = 0, t, lo
        cdef int i, j, a, b, su, d, res
        cdef int pts[4]
        cdef int distinct[4]
        cdef int ndistinct = 0
        cdef int out[4]
        if len(hands) != 4 or len(places) != 4 or not 0 <= mover < 4 or not 0 <= start < 13:
            return ERR_ARGS, 0, [], 0
        for i in range(4):
            h[i] = to_lanes(<uint64_t>(int(hands[i]) & 0xFFFFFFFFFFFFFFFF), low_aces)
            if held & h[i]:
                return ERR_DUPLICATE, from_lane_card(__builtin_ctzll(held & h[i]), low_aces), [], 0
            held |= h[i]
            pts[i] = int(places[i])
        memset(&s, 0, sizeof(DSearch))
        s.table = ALL_CARDS & ~held
        s.start = (start + 1) % 13 if low_aces else start
        s.ace = 0 if low_aces else 12
        s.replays = ace_replays
        for su in range(4):
            t = (s.table >> (16 * su)) & LANE
            if t == 0:
                continue
            lo = t & (~t + 1)
            if ((t + lo) & t) != 0 or not ((t >> s.start) & 1):
                return ERR_LAYOUT, su, [], 0
        # place points -> their index among the distinct values, smallest first
        for i in range(4):
            for j in range(ndistinct):
                if distinct[j] == pts[i]:
                    break
            else:
                distinct[ndistinct] = pts[i]
                ndistinct += 1
        for i in range(1, ndistinct):
            d = distinct[i]
            j = i
            while j > 0 and distinct[j - 1] > d:
                distinct[j] = distinct[j - 1]
                j -= 1
            distinct[j] = d
        for i in range(4):
            for j in range(ndistinct):
                if distinct[j] == pts[i]:
                    s.val[i] = <int8_t>j
        for a in range(4):
            for b in range(a, 4):
                s.rmin[a][b] = s.val[a]
                s.rmax[a][b] = s.val[a]
                for i in range(a, b + 1):
                    if s.val[i] < s.rmin[a][b]:
                        s.rmin[a][b] = s.val[i]
                    if s.val[i] > s.rmax[a][b]:
                        s.rmax[a][b] = s.val[i]
        for i in range(64):
            s.own[i] = -1
        for i in range(4):
            s.hands[i] = h[i]
            if h[i] == 0:
                s.nout += 1
            for j in range(64):
                if (h[i] >> j) & 1:
                    s.own[j] = <int8_t>i
        context = (tuple(int(x) for x in hands), start, low_aces, ace_replays, tuple(pts))
        if context != self.context:
            self.clear()
            self.context = context
        s.tt = self.tt
        s.tt_shift = self.tt_shift
        s.gen = self.gen
        with nogil:
            for i in range(4):
                out[i] = -1
                if (seats >> i) & 1:
                    s.seat = i
                    out[i] = solve_seat(&s, mover)
        self.last = s.st
        values = [None if out[i] < 0 else distinct[out[i]] for i in range(4)]
        return 0, 0, values, s.st.nodes
