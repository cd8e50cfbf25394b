# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The Dominoes / Réussite search of barbu-dd (private: use :mod:`barbu_dd.dominoes`).

For one seat X at a time (SPEC §5): the best finishing place X can guarantee when X
maximises the points of its place and the three others, as one team, minimise them.

The state is the cards on the table and the seat to move: every card off the table
is still held by the seat that held it in the position given, so the hands, the
seats already out and hence X's place follow from the table.  The place values are
replaced by their index among the contract's distinct values (at most four), so the
answer is found by two null-window searches ("can X get at least this?"), MTD-style
(or one, when only whether X reaches a floor matters: the best starting rank).

Speed comes from:

- a transposition table keyed exactly by (table, seat to move, X), with a lower and
  an upper bound and the best card, in buckets of four 16-byte entries, emptied in
  O(1) by a generation counter.  Once every suit is started the starting rank no
  longer matters, so the key holds it only before: the searches of one deal from
  different starting ranks share their positions;
- place bounds (:func:`race`), from two facts.  Leaves: a seat's last card is one
  that none of its other cards needs on the table first, and a card beyond it in its
  suit cannot be played before it, so whoever holds one goes out later; a seat whose
  cards all lie within its own reach can choose which leaf to keep for last.  Turns:
  no seat goes out in fewer turns than its cards (less its Aces, with ace replays),
  and a seat holding a playable card never passes, so it plays that card within as
  many turns as it holds cards: this bounds when a seat goes out, if its cards need
  at most one other seat's playable card in front of each of its runs.  From these,
  the opponents sure to go out before X or after X bound X's place;
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


cdef inline uint64_t pack_table(uint64_t t) noexcept nogil:
    """The 52 table bits side by side (13 a suit)."""
    return (t & LANE) | ((t >> 3) & (<uint64_t>LANE << 13)) | ((t >> 6) & (<uint64_t>LANE << 26)) \
        | ((t >> 9) & (<uint64_t>LANE << 39))


cdef inline bint all_open(uint64_t t) noexcept nogil:
    """Whether every suit is started: then the starting rank no longer matters (the
    moves, the hands and the bounds follow from the table alone)."""
    return ((t & LANE) != 0) & (((t >> 16) & LANE) != 0) & (((t >> 32) & LANE) != 0) \
        & (((t >> 48) & LANE) != 0)


cdef inline int next_seat(const DSearch* s, int m) noexcept nogil:
    """The next seat clockwise after ``m`` that holds cards (X always does)."""
    m = (m + 1) & 3
    while s.hands[m] == 0:
        m = (m + 1) & 3
    return m


# -- bounds ------------------------------------------------------------------------

cdef inline int analyse(const DSearch* s, int j, int mover, const int* cnt, uint64_t* regions,
                        int* nregions, bint* alone) noexcept nogil:
    """Seat ``j``'s leaves and the latest turn it goes out.

    The leaves: ``regions`` gets the cards beyond each *leaf* of j (at most two a
    suit), ``nregions`` how many.  A leaf is a card of j that no other card of j needs
    on the table first: in each suit, j's highest card above the run (or above the
    starting rank, in a suit not started) and its lowest card below it, or the
    starting card itself when it is j's only card of its suit.  j's last card is a
    leaf, and a card beyond a leaf (farther from the run) cannot be played before it:
    whoever holds one goes out after the leaf is played.

    The latest turn (``4 * (n - 1) + offset``), or ``NEVER`` when it cannot be bounded:
    a seat holding a playable card never passes, so it plays that card within as many
    of its turns as it holds cards.  The bound needs every card of j within its own
    reach (``alone``) but for at most one card of another seat, now playable, in front
    of each of its runs: once those are played (each by its holder's last turn at the
    latest) all j's cards are within its reach, and meanwhile j plays a card a turn as
    long as it holds one within its reach.
    """
    cdef int su, k, d = -1, blocked = 0, n = cnt[j], off = (j - mover) & 3, q, nr = 0
    cdef bint never = False
    cdef uint64_t hl, t, lo, nxt, prv, up, dn
    for su in range(4):
        hl = (s.hands[j] >> (16 * su)) & LANE
        if hl == 0:
            continue
        t = (s.table >> (16 * su)) & LANE
        if t == 0:
            lo = <uint64_t>1 << s.start
            if hl == lo:
                regions[nr] = (LANE & ~lo) << (16 * su)
                nr += 1
                continue
            nxt = lo << 1
            prv = lo >> 1
        else:
            lo = t & (~t + 1)
            nxt = (t + lo) & LANE       # the card just above the run (0: none)
            prv = lo >> 1               # the card just below it (0: none)
        up = hl & ~((lo << 1) - 1)
        dn = hl & (lo - 1)
        if up:
            regions[nr] = (LANE & ~((<uint64_t>2 << (63 - __builtin_clzll(up))) - 1)) << (16 * su)
            nr += 1
        if dn:
            regions[nr] = ((dn & (~dn + 1)) - 1) << (16 * su)
            nr += 1
        if never:
            continue
        if t == 0 and not (hl & lo):
            # the starting card is another seat's: j's cards must follow it
            if (up and ((up & nxt) == 0 or ((up + nxt) & up) != 0)) \
                    or (dn and ((dn & prv) == 0 or dn + (dn & (~dn + 1)) != (prv << 1))):
                never = True
                continue
            k = s.own[16 * su + s.start]
            q = 4 * (cnt[k] - 1) + ((k - mover) & 3)
            if q > d:
                d = q
            blocked += popcount(hl)
            continue
        if up:
            if up & nxt:
                if ((up + nxt) & up) != 0:
                    never = True
            elif (up & (nxt << 1)) == 0 or ((up + (nxt << 1)) & up) != 0:
                never = True
            else:
                # another seat's card first, then j's run
                k = s.own[16 * su + __builtin_ctzll(nxt)]
                q = 4 * (cnt[k] - 1) + ((k - mover) & 3)
                if q > d:
                    d = q
                blocked += popcount(up)
        if dn:
            if dn & prv:
                if dn + (dn & (~dn + 1)) != (prv << 1):
                    never = True
            elif (dn & (prv >> 1)) == 0 or dn + (dn & (~dn + 1)) != prv:
                never = True
            else:
                k = s.own[16 * su + __builtin_ctzll(prv)]
                q = 4 * (cnt[k] - 1) + ((k - mover) & 3)
                if q > d:
                    d = q
                blocked += popcount(dn)
    nregions[0] = nr
    alone[0] = not never and blocked == 0
    if never:
        return NEVER
    if blocked:
        # j's turns before the last card in front of its runs is surely played
        q = d - off
        q = 0 if q < 0 else q // 4 + 1
        if q + blocked > n:
            n = q + blocked
    return 4 * (n - 1) + off


cdef inline void race(const DSearch* s, int mover, int* plo, int* pho, int* phi, int* phx) noexcept nogil:
    """The range of places X can still get.

    From the seats' turns: a turn is counted as 4 * (n - 1) + offset for the n-th
    turn from now of the seat ``offset`` places after the mover.  A seat goes out no
    sooner than its turn ``cards`` (``cards - aces`` with ace replays), and no later
    than the turn :func:`analyse` finds.

    From the leaves (:func:`analyse`): X's last card is one of its leaves, so every
    seat holding a card beyond each leaf of X goes out after X, whatever the play; a
    seat whose every leaf has a card of X beyond it goes out before X.

    Whatever the play, X's place is in ``plo..phi``.  X can make sure of a place no
    worse than ``phx`` (<= ``phi``), and the others of a place for X no better than
    ``pho`` (>= ``plo``): a seat whose cards are all within its own reach can choose
    which leaf to play last, and so keep the seats beyond it behind it.  (``phx``
    bounds X's value from below only, ``pho`` from above only: with an uneven scale X
    may prefer another place.)
    """
    cdef int j, n, e, certain = 0, possible = 0, ex, gx, nopp = 0, k, w, nr
    cdef int pmask = 0, omask = 0, m, behind = 4, chosen = 0, cm, forced = 0
    cdef bint alone, xalone
    cdef uint64_t h
    cdef int et[4]
    cdef int cnt[4]
    cdef uint64_t regions[8]
    cdef uint64_t aces = (<uint64_t>1 << s.ace) * <uint64_t>0x0001000100010001
    for j in range(4):
        h = s.hands[j]
        if h == 0:
            continue
        n = popcount(h)
        cnt[j] = n
        e = n
        if s.replays:
            e = n - popcount(h & aces)
            if e < 1:
                e = 1
        et[j] = 4 * (e - 1) + ((j - mover) & 3)
        if j != s.seat:
            nopp += 1
            omask |= 1 << j
    ex = et[s.seat]
    h = s.hands[s.seat]
    # X's leaves: the seats beyond X's last card (the worst leaf; the best one when X
    # needs no help, among the seats the turns leave possible)
    gx = analyse(s, s.seat, mover, cnt, regions, &nr, &xalone)
    for j in range(4):
        if (omask >> j) & 1 and et[j] < gx:
            possible += 1
            pmask |= 1 << j
    for k in range(nr):
        m = 0
        cm = 0
        for w in range(4):
            if (omask >> w) & 1 and (s.hands[w] & regions[k]):
                m += 1
                if (pmask >> w) & 1:
                    cm += 1
        if m < behind:
            behind = m
        if cm > chosen:
            chosen = cm
    for j in range(4):
        if not (omask >> j) & 1:
            continue
        if analyse(s, j, mover, cnt, regions, &nr, &alone) < ex:
            certain += 1
            continue
        # j's last card is one of its leaves: if X holds a card beyond each, X is still
        # in when j goes out (if beyond one, and j needs no help, j can choose to play
        # that one last)
        w = 0
        for k in range(nr):
            if h & regions[k]:
                w += 1
        if w == nr:
            certain += 1
        elif w and alone:
            forced += 1
    # possible: the seats that may go out before X, whatever the play
    k = possible
    if possible > nopp - behind:
        possible = nopp - behind
    plo[0] = s.nout + 1 + certain
    pho[0] = plo[0] + forced
    phi[0] = s.nout + 1 + possible
    # with its best leaf last, X keeps ``chosen`` of the k seats of the turn count
    # behind it
    if xalone and k - chosen < possible:
        possible = k - chosen
    phx[0] = s.nout + 1 + possible


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
    cdef int k, plo, pho, phi, phx, lo_v, hi_v, a, b, best, bestcard, hint, n, i, j, c, v, sc, maxi, spare
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
    if not all_open(s.table):
        # a suit not started yet: the position depends on the starting rank
        key |= <uint64_t>(s.start + 1) << 56
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
        race(s, mover, &plo, &pho, &phi, &phx)
        lo_v = s.rmin[plo - 1][phx - 1]
        hi_v = s.rmax[pho - 1][phi - 1]
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


cdef int solve_seat(DSearch* s, int mover, int floor) noexcept nogil:
    """X's exact value (an index into the distinct place values) by bisection, if it
    is at least ``floor``; otherwise an upper bound below ``floor`` (found sooner: the
    first test is at ``floor``)."""
    cdef int lo, hi, mid, g
    if s.hands[s.seat] == 0:
        return -1
    if s.nout >= 3:
        return s.val[3]
    if s.hands[mover] == 0:
        mover = next_seat(s, mover)
    lo = s.rmin[s.nout][3]
    hi = s.rmax[s.nout][3]
    if hi < floor:
        return hi
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if mid < floor:
            mid = floor
        g = search(s, mover, mid - 1, mid)
        if g >= mid:
            lo = g if g < hi else hi
        else:
            hi = g if g > lo else lo
            if hi < floor:
                return hi
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
                       places, int seats=15, floor=None):
        """Each asked seat's value: ``(code, detail, values, nodes)``.

        ``hands``: four card masks (16 * suit + rank); the table is every other card.
        ``mover``: the seat to move (skipped while it has no cards).  ``start``: the
        starting rank (0..12).  ``places``: the points of places 1..4.  ``seats``:
        bit i asks for seat i.  ``values[i]`` is the points of seat i's guaranteed
        place, ``None`` if not asked or already out.  ``floor`` (points): a value
        below it is only an upper bound (the seat cannot guarantee ``floor``), found
        with less search.  ``code`` < 0 is an error (``ERRORS``), ``detail`` the card
        or suit at fault; then ``values`` is empty.
        """
        cdef DSearch s
        cdef uint64_t h[4]
        cdef uint64_t held = 0, t, lo
        cdef int i, j, a, b, su, d, res, fl
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
        # the floor as an index: the first distinct value reaching it
        fl = 0
        if floor is not None:
            while fl < ndistinct and distinct[fl] < floor:
                fl += 1
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
        # the starting rank is not in the context: positions with every suit started are
        # the same whatever the start (shared by the ranks of a best-start search), the
        # others have the start in their key
        context = (tuple(int(x) for x in hands), low_aces, ace_replays, tuple(pts))
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
                    out[i] = solve_seat(&s, mover, fl)
        self.last = s.st
        values = [None if out[i] < 0 else distinct[out[i]] for i in range(4)]
        return 0, 0, values, s.st.nodes


def _race_bounds(hands, int mover, int start, bint low_aces, bint ace_replays, int seat):
    """The place bounds ``(plo, pho, phi, phx)`` of :func:`race` for X = ``seat`` (a
    testing hook: no checks).  ``mover`` must have a playable card."""
    cdef DSearch s
    cdef int i, j, plo, pho, phi, phx
    cdef uint64_t held = 0
    memset(&s, 0, sizeof(DSearch))
    for i in range(4):
        s.hands[i] = to_lanes(<uint64_t>int(hands[i]), low_aces)
        held |= s.hands[i]
        if s.hands[i] == 0:
            s.nout += 1
    s.table = ALL_CARDS & ~held
    s.start = (start + 1) % 13 if low_aces else start
    s.ace = 0 if low_aces else 12
    s.replays = ace_replays
    s.seat = seat
    for i in range(64):
        s.own[i] = -1
    for i in range(64):
        for j in range(4):
            if (s.hands[j] >> i) & 1:
                s.own[i] = j
    race(&s, mover, &plo, &pho, &phi, &phx)
    return plo, pho, phi, phx
