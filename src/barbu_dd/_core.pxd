# cython: language_level=3
"""Shared C declarations of the search core (see _core.pyx)."""

from libc.stdint cimport int32_t, uint8_t, uint16_t, uint32_t, uint64_t


cdef enum:
    MAX_PROBES = 64           # probes a solve records (a solve needs about 2 log2(range))


cdef struct Rules:
    int32_t card_points[64]   # points for winning each card (index 16*suit + rank)
    int32_t card_class[64]    # equivalence class of a card under the scoring (points + duties)
    int32_t trick_points[14]  # points for winning trick number i (1..13), per-trick points included
    int32_t neg_suffix[15]    # sum of negative trick_points from trick i to 13
    int32_t pos_suffix[15]    # sum of positive trick_points from trick i to 13
    uint64_t sym_plane[4][2]  # per suit: two bit planes of the class symbol of each rank
    int sym_mode[4]           # 0: one class in the suit; 1: planes (<= 4 classes); 2: raw mask
    uint64_t special[4]       # per suit: ranks that always stay relevant (trump suit with duties)
    uint64_t point_cards      # the cards worth points
    int positive              # the contract hands out more than it takes (winning tricks is good)
    int use_hist              # the move order uses the history heuristic (gen_moves)
    int qt_ok                 # quick tricks apply: every trick worth qt_value, no negative points
    int32_t qt_value          # the value of a trick when qt_ok
    int trump                 # trump suit 0..3, or -1 for none
    int null_ok               # no trumps, additive: the lone seat's no-more-tricks test applies
    int point_ok              # points on cards only (no trumps): the lone seat's point_safe test applies
    int budget_from           # budget_safe from this many tricks left (0: never)
    int mid_ok                # the lone seat's tests also in a trick in progress (lone_safe_in_trick)
    int rounds_ok             # budgeted rounds at the others' early leads (not positive)
    int narrow_ok             # narrow passes before each probe against a lone seat (solve's narrow_search)
    int helper_on             # the second thread orders the others' moves by helper_w (helper_score)
    double helper_w[48]       # its weights (data/helper_order.json)
    int heart_lead            # no heart lead while holding another suit
    int king_duty             # the K♥ holder must play it on a heart lead or first discard
    int trump_duties          # must trump / overtrump (classic Trumps)
    int ravage                # Ravage City scoring instead of additive points
    int32_t ravage_share[5]   # score units of one seat sharing the penalty among k seats
    int32_t gcd               # every score is a multiple of this
    uint32_t cls_mask[4][14]  # per suit: the bits of a Codes.cls that the top n cards decide
    uint64_t cls_mask2[2][256]  # suits 2i, 2i+1 with n, m top cards (index n | m << 4): both masks


cdef struct Pos:
    uint64_t hand[4]          # the cards each seat holds (16-bit lane a suit)
    int leader                # the seat that led (or leads) the current trick
    int ntrick                # cards already played to the current trick (0..3)
    int trick_card[4]         # those cards, in play order
    int win_idx               # index in trick_card of the card winning so far
    int tricks_left           # tricks still to be completed, the current one included
    int side                  # bit i set: seat i is on the maximising side
    int32_t pts_neg           # sum of negative card points of cards in hands and trick
    int32_t pts_pos           # sum of positive card points of cards in hands and trick
    uint8_t won[4][4]         # Ravage City: cards of each suit won by each seat
    uint64_t trick_rel        # the card that won the last trick against a card of its suit


cdef struct Stats:
    uint64_t nodes            # search calls
    uint64_t tt_hits          # transposition-table cut-offs
    uint64_t tt_stores        # entries written
    uint64_t trick_nodes      # tricks completed in the search (DDS's node count)
    uint64_t cut_at[4][4]     # cut-offs by cards in trick and move index (3 = later)
    uint64_t allnodes[4]      # nodes where every move was searched
    uint64_t by_left[14]      # nodes by tricks left
    uint64_t null_cuts        # cut-offs by the lone seat's no-more-tricks test
    uint64_t rounds           # nodes that searched their moves in budgeted rounds
    uint64_t narrow_proofs    # probes settled by a narrow pass that left out moves (narrow_search)
    int nprobes               # the driver's null-window probes (solve_value), in order:
    int32_t probe_target[MAX_PROBES]   # the target asked
    int32_t probe_bound[MAX_PROBES]    # the fail-soft bound proved
    uint64_t probe_nodes[MAX_PROBES]   # the nodes it took


cdef struct TTEntry:
    uint64_t lens             # suit lengths: 4 bits for each hand and suit
    uint64_t won              # Ravage City: cards won, 4 bits for each seat and suit
    uint32_t own[4]           # per suit: owners of the top k cards, 2 bits a card, top first
    uint32_t cls[4]           # per suit: classes of those cards (2 planes), or the suit's mask
    uint32_t sig[4]           # per suit: small cards of each special class held by each hand
    uint8_t k[4]              # per suit: how many top cards must match (relevant ranks)
    uint8_t j[4]              # per suit: how many bottom cards must match (relevant low ranks)
    uint8_t misc              # leader | side << 2 | narrow pass << 6 (see narrow_search)
    uint16_t best             # best lead: 16 * suit + index among the suit's cards left, 0xFFFF none
    int32_t lb                # lower bound of the future value
    int32_t ub                # upper bound of the future value
    uint32_t gen              # generation; entries of older generations are empty
    uint16_t depth            # tricks left
    uint32_t stamp            # node count when last stored or used (replacement: oldest, by age >> depth / 2)
