# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The engine's compiled core: the hot paths of every variant in C, built from this file by Cython.

The pure-Python modules beside it are the reference: this file does exactly what they do, the
same plays in the same order with the same steps, notation and Position IDs, and the tests hold
the two to each other on 100,000 positions of each variant. Only answers are computed here; the
words of a refusal are the pure code's. Where a check here finds anything wrong (a malformed
Position ID, an impossible position, a play it cannot allow at once), it answers ``None`` and the
caller asks the pure code, which says why.

What is here, each beside the pure function it stands for:

- legal plays (``backgammon.Backgammon._pure_plays``, ``long_nardi.LongNardi._step_sequences``,
  ``plakoto.Plakoto._pure_plays``, ``fevga.Fevga._pure_plays``, with
  ``variant.Variant._apply_maximum_use``): :func:`legal_plays` returns a :class:`CompiledPlays`,
  the plays as C data, turned into Python objects only when read;
- one given play (``checking.check_play``): :func:`check_play`;
- Position IDs (``position.encode_position_id``, ``position.decode_position_id``);
- notation (``play.format_steps``);
- whether a position can occur (``Variant.validate``, ``Variant.check_position``): :func:`valid`.
- a .mat record's backgammon games read and checked in one pass (``matfile.reading.read_record``
  with ``matfile.checking.check_record``) where they are plainly clean: :func:`check_mat_games`
  and, a game at a time, :func:`check_mat_game`.

A side's checkers are 26 counts (off, points 1-24, the bar), as in ``engine.position``. Plakoto's
pinned checkers are bit masks of points: the mover's, which stay as they are through its turn, and
the opponent's, which its steps change.
"""

from cpython.bytes cimport PyBytes_AS_STRING, PyBytes_FromStringAndSize
from cpython.object cimport PyObject
from cpython.ref cimport Py_INCREF
from cpython.tuple cimport PyTuple_GET_ITEM, PyTuple_New, PyTuple_SET_ITEM
from cpython.unicode cimport PyUnicode_DecodeASCII
from libc.stdint cimport uint8_t, uint32_t, uint64_t
from libc.stdlib cimport free, malloc, realloc
from libc.string cimport memcmp, memcpy, memset, strlen

cdef enum:
    BACKGAMMON_RULES = 0
    LONG_NARDI_RULES = 1
    PLAKOTO_RULES = 2  # with its default options
    FEVGA_RULES = 3  # with its default options

# The variants whose moves are compiled here (``Variant.compiled_rules``).
BACKGAMMON = BACKGAMMON_RULES
LONG_NARDI = LONG_NARDI_RULES
PLAKOTO = PLAKOTO_RULES
FEVGA = FEVGA_RULES

cdef enum:
    OFF = 0
    BAR = 25
    HEAD = 24  # long nardi's head, Plakoto's and Fevga's starting point: the mother's in Plakoto
    POINTS = 26
    NO_POINT = -1
    PAST_START = 11  # Fevga: a checker this far (or off) has passed the opponent's start
    START_QUARTER = 19  # Fevga: the lowest of the six points of a side's starting quarter


ctypedef signed char count_t

ctypedef struct CStep:
    count_t start
    count_t end
    count_t die
    count_t hit

ctypedef struct CPlay:
    int count  # steps
    CStep steps[4]
    count_t player[POINTS]  # the mover's checkers after the play
    uint32_t hits  # the mover's points where a blot was hit (backgammon)
    uint32_t pinned  # the opponent's pinned points after the play, in its numbering (Plakoto)
    bint ended  # the play ends the game (Plakoto: its mother rule)


# --- Python objects the core hands out --------------------------------------------------------
# Imported on first use: the engine's modules import this one, so it cannot import them first.

cdef object _Position = None
cdef object _PinnedPosition = None
cdef object _Pins = None
cdef object _Play = None
cdef object _Step = None
cdef object _new = tuple.__new__
cdef list _SMALL = list(range(16))
cdef list _NAMES = ["off"] + [str(point) for point in range(1, 25)] + ["bar"]


cdef inline void _bind():
    global _Position, _PinnedPosition, _Pins, _Play, _Step
    if _Play is None:
        from tavli.engine.play import Play, Step
        from tavli.engine.position import PinnedPosition, Pins, Position

        _Position, _PinnedPosition, _Pins, _Play, _Step = Position, PinnedPosition, Pins, Play, Step


cdef extern from *:
    """
    /* A tuple subclass's instance (Position, Play, Step) with its items, as tuple.__new__ makes it. */
    static PyObject* tavli_tuple_of(PyObject* type, Py_ssize_t size, PyObject** items) {
        PyObject* made = ((PyTypeObject*)type)->tp_alloc((PyTypeObject*)type, size);
        Py_ssize_t index;
        if (made == NULL) return NULL;
        for (index = 0; index < size; index++) {
            Py_INCREF(items[index]);
            PyTuple_SET_ITEM(made, index, items[index]);
        }
        return made;
    }
    """
    object tavli_tuple_of(object type, Py_ssize_t size, PyObject** items)


cdef PyObject* _SMALL_INTS[16]
for _count in range(16):
    _SMALL_INTS[_count] = <PyObject*>_SMALL[_count]


cdef tuple _side_tuple(const count_t* counts):
    cdef tuple side = PyTuple_New(POINTS)
    cdef PyObject* count
    cdef int point
    for point in range(POINTS):
        count = _SMALL_INTS[counts[point]]
        Py_INCREF(<object>count)
        PyTuple_SET_ITEM(side, point, <object>count)
    return side


cdef inline object _pair(object type, object first, object second):
    cdef PyObject* items[2]
    items[0] = <PyObject*>first
    items[1] = <PyObject*>second
    return tavli_tuple_of(type, 2, items)


# --- pinned checkers (Plakoto) ------------------------------------------------------------------

cdef uint32_t _pin_mask(object points) except? 0:
    # The points of a side's pins (``Pins.player`` or ``Pins.opponent``) as a mask.
    cdef uint32_t mask = 0
    for point in points:
        mask |= <uint32_t>1 << <int>point
    return mask


cdef tuple _pinned_points(uint32_t mask):
    cdef list points = []
    cdef int point
    for point in range(1, 25):
        if mask >> point & 1:
            points.append(_SMALL[point] if point < 16 else point)
    return tuple(points)


cdef object _position_object(
    object player_side, object opponent_side, uint32_t mover_pins, uint32_t pinned, dict pins_made=None
):
    # ``Position.with_pins``: a PinnedPosition when either side has a checker pinned, else the pair.
    # ``pins_made`` keeps the Pins already made for the plays of one roll, by the opponent's pins.
    if not (mover_pins or pinned):
        return _pair(_Position, player_side, opponent_side)
    pins = None if pins_made is None else pins_made.get(pinned)
    if pins is None:
        pins = _Pins(_pinned_points(mover_pins), _pinned_points(pinned))
        if pins_made is not None:
            pins_made[pinned] = pins
    return _PinnedPosition(player_side, opponent_side, pins)


cdef enum:
    PINS_TEXT_SIZE = 100  # the longest pins text: a colon, and 24 pins of 4 characters


cdef int _pins_text(uint32_t mover_pins, uint32_t pinned, char* text) noexcept nogil:
    # What a Position ID with pins has after its 14 letters (``Pins.text`` after a colon,
    # ``:m9,o7,o20``), written to ``text``; its length (0 without pins).
    cdef int length = 0
    cdef int side, point
    cdef uint32_t mask
    for side in range(2):
        mask = mover_pins if side == 0 else pinned
        for point in range(1, 25):
            if mask >> point & 1:
                text[length] = b":" if length == 0 else b","
                text[length + 1] = b"m" if side == 0 else b"o"
                length += 2
                if point >= 10:
                    text[length] = <char>(48 + point // 10)
                    length += 1
                text[length] = <char>(48 + point % 10)
                length += 1
    return length


# Steps are few (start, end, die, hit): each made once and shared, as the pure code shares its own.
cdef list _KEEP = []  # holds the references of the steps made
cdef PyObject* _STEP_OBJECTS[POINTS * POINTS * 7 * 2]
memset(_STEP_OBJECTS, 0, sizeof(_STEP_OBJECTS))


cdef PyObject* _step_object(CStep step) except NULL:
    cdef int key = ((step.start * POINTS + step.end) * 7 + step.die) * 2 + step.hit
    if _STEP_OBJECTS[key] == NULL:
        made = _new(_Step, (step.start, step.end, step.die, step.hit != 0))
        _KEEP.append(made)
        _STEP_OBJECTS[key] = <PyObject*>made
    return _STEP_OBJECTS[key]


cdef tuple _steps_tuple(const CStep* steps, int count):
    cdef tuple result = PyTuple_New(count)
    cdef int index
    cdef PyObject* item
    for index in range(count):
        item = _step_object(steps[index])
        Py_INCREF(<object>item)
        PyTuple_SET_ITEM(result, index, <object>item)
    return result


cdef int _read_position(object position, count_t* player, count_t* opponent) except -1:
    # Both sides' 26 counts from a Position (a pair of tuples the engine built and checked).
    if not isinstance(position, tuple) or len(<tuple>position) != 2:
        raise TypeError("a position is a pair of sides")
    _read_side(<object>PyTuple_GET_ITEM(position, 0), player)
    _read_side(<object>PyTuple_GET_ITEM(position, 1), opponent)
    return 0


cdef int _read_side(object side, count_t* counts) except -1:
    cdef int point
    cdef int count
    if type(side) is not tuple or len(<tuple>side) != POINTS:
        raise TypeError("a side is a tuple of 26 checker counts")
    for point in range(POINTS):
        count = <object>PyTuple_GET_ITEM(side, point)
        if not 0 <= count <= 15:
            raise ValueError("a point holds 0 to 15 checkers")
        counts[point] = <count_t>count
    return 0


# --- Position IDs -----------------------------------------------------------------------------

cdef const char* _BASE64 = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
cdef signed char _SEXTET[256]


cdef void _init_sextets():
    cdef int index
    for index in range(256):
        _SEXTET[index] = -1
    for index in range(64):
        _SEXTET[<unsigned char>_BASE64[index]] = index


_init_sextets()


cdef extern from *:
    """
    typedef unsigned __int128 tavli_bits;
    """
    ctypedef unsigned long long tavli_bits  # 128 bits wide: the C type above


cdef inline int _side_bits(const count_t* side, tavli_bits* bits, int bit) noexcept nogil:
    # A side's bits from ``bit`` on: a 1-bit a checker, then a 0-bit, for points 1-24 and the bar.
    cdef int point
    for point in range(1, POINTS):
        bits[0] |= <tavli_bits>((<uint64_t>1 << side[point]) - 1) << bit
        bit += side[point] + 1
    return bit


cdef extern from "Python.h":
    object PyUnicode_New(Py_ssize_t size, Py_UCS4 maxchar)
    void* PyUnicode_DATA(object text)


cdef object _id_text(tavli_bits bits, uint32_t mover_pins=0, uint32_t pinned=0):
    # The Position ID of ``bits``, and the pins after it if there are any.
    cdef char pins[PINS_TEXT_SIZE]
    cdef int pins_length = _pins_text(mover_pins, pinned, pins)
    cdef object text = PyUnicode_New(14 + pins_length, 127)  # an ASCII string, written in place
    cdef char* out = <char*>PyUnicode_DATA(text)
    _id_chars(bits, out)
    memcpy(out + 14, pins, pins_length)
    return text


cdef void _id_chars(tavli_bits bits, char* text) noexcept nogil:
    # The 80 bits as 10 bytes, least significant first, in base64 without the padding.
    cdef unsigned char key[12]
    cdef int index
    for index in range(12):
        key[index] = <unsigned char>(bits >> (8 * index))
    for index in range(3):
        text[index * 4] = _BASE64[key[index * 3] >> 2]
        text[index * 4 + 1] = _BASE64[((key[index * 3] & 3) << 4) | (key[index * 3 + 1] >> 4)]
        text[index * 4 + 2] = _BASE64[((key[index * 3 + 1] & 15) << 2) | (key[index * 3 + 2] >> 6)]
        text[index * 4 + 3] = _BASE64[key[index * 3 + 2] & 63]
    text[12] = _BASE64[key[9] >> 2]
    text[13] = _BASE64[(key[9] & 3) << 4]


cdef object _position_id(const count_t* player, const count_t* opponent):
    # The opponent's points 1-24 and bar, then the player's.
    cdef tavli_bits bits = 0
    _side_bits(player, &bits, _side_bits(opponent, &bits, 0))
    return _id_text(bits)


def encode_position_id(position):
    """The Position ID of ``position`` (``position.encode_position_id``)."""
    cdef count_t player[POINTS]
    cdef count_t opponent[POINTS]
    _read_position(position, player, opponent)
    return _position_id(player, opponent)


def decode_position_id(position_id):
    """The position a Position ID stands for, or ``None`` when it is not one of a position with 15
    checkers a side (``position.decode_position_id`` says why)."""
    cdef unsigned char key[12]
    cdef int runs[50]
    cdef int index, value, bit, run, found, on_board
    cdef count_t sides[2][POINTS]
    if not isinstance(position_id, str) or len(position_id) != 14:
        return None
    try:
        raw = (<str>position_id).encode("ascii")
    except UnicodeEncodeError:
        return None
    cdef const unsigned char* text = raw
    memset(key, 0, 12)
    for index in range(14):
        value = _SEXTET[text[index]]
        if value < 0:
            return None
        bit = index * 6
        # Six bits, most significant first in the text, into the byte string as base64 packs them.
        for run in range(6):
            if value & (32 >> run) and bit + run < 96:
                key[(bit + run) >> 3] |= 128 >> ((bit + run) & 7)
    # Bit i of the key (least significant first in each byte): runs of 1s split by 0s.
    found = 0
    run = 0
    for bit in range(80):
        if key[bit >> 3] >> (bit & 7) & 1:
            run += 1
        else:
            runs[found] = run
            found += 1
            run = 0
            if found == 50:
                break
    if found < 50:
        runs[found] = run
        found += 1
        while found < 50:
            runs[found] = 0
            found += 1
    for index in range(2):
        on_board = 0
        for run in range(25):
            on_board += runs[index * 25 + run]
        if on_board > 15:
            return None
        sides[index][OFF] = 15 - on_board
        for run in range(25):
            sides[index][run + 1] = runs[index * 25 + run]
    _bind()
    return _pair(_Position, _side_tuple(sides[1]), _side_tuple(sides[0]))


# --- notation ---------------------------------------------------------------------------------

cdef inline bint _step_above(CStep a, CStep b) noexcept:
    # Whether ``a`` sorts after ``b`` as the tuple (start, end, die, hit).
    if a.start != b.start:
        return a.start > b.start
    if a.end != b.end:
        return a.end > b.end
    if a.die != b.die:
        return a.die > b.die
    return a.hit > b.hit


cdef int _point_chars(int point, char* out) noexcept nogil:
    # A point's name (``play.point_name``): "off", "1" to "24", "bar".
    if point == OFF or point == BAR:
        memcpy(out, b"off" if point == OFF else b"bar", 3)
        return 3
    if point < 10:
        out[0] = <char>(48 + point)
        return 1
    out[0] = <char>(48 + point // 10)
    out[1] = <char>(48 + point % 10)
    return 2


cdef int _step_chars(CStep step, char* out) noexcept nogil:
    cdef int length = _point_chars(step.start, out)
    out[length] = 47  # "/"
    length += 1 + _point_chars(step.end, out + length + 1)
    if step.hit:
        out[length] = 42  # "*"
        length += 1
    return length


cdef enum:
    MOST_NOTATION = 64  # the longest notation of four steps is under 40 characters


cdef str _notation(const CStep* given, int count):
    cdef char text[MOST_NOTATION]
    return PyUnicode_DecodeASCII(text, _notation_chars(given, count, text), NULL)


cdef int _notation_chars(const CStep* given, int count, char* out) noexcept:
    # ``play.format_steps``, step for step, written into ``out``: its length.
    cdef CStep steps[4]
    cdef CStep first, second, swap
    cdef int index, other, move, found, paths, point_index, length
    cdef int points[4][6]
    cdef int lengths[4]
    cdef int hit_points[4][4]
    cdef int hit_lengths[4]
    cdef int unmarked[26]
    cdef bint hit
    cdef int start, end
    cdef int path_of[4]
    cdef int path_counts[4]
    cdef bint is_hit_point
    if count == 0:
        return 0
    if count == 2:
        first, second = given[0], given[1]
        if first.start < second.start or (first.start == second.start and first.end < second.end):
            first, second = second, first
        if first.end != second.start and (first.start != second.start or first.end != second.end):
            if second.hit and first.end == second.end:
                first.hit = 1
                second.hit = 0
            length = _step_chars(first, out)
            out[length] = 32  # " "
            return length + 1 + _step_chars(second, out + length + 1)
    for index in range(count):
        steps[index] = given[index]
    for index in range(1, count):  # sorted as tuples, from the highest down
        other = index
        while other > 0 and _step_above(steps[other], steps[other - 1]):
            swap = steps[other]
            steps[other] = steps[other - 1]
            steps[other - 1] = swap
            other -= 1
    memset(unmarked, 0, sizeof(unmarked))
    for index in range(count):
        if steps[index].hit:
            unmarked[steps[index].end] = 1
    cdef int moves = 0
    for index in range(count):
        start = steps[index].start
        end = steps[index].end
        hit = unmarked[end] != 0
        unmarked[end] = 0
        found = -1
        for move in range(moves):
            if points[move][lengths[move] - 1] == start:
                found = move
                break
        if found >= 0:
            is_hit_point = 0
            for point_index in range(hit_lengths[found]):
                if hit_points[found][point_index] == start:
                    is_hit_point = 1
            if not is_hit_point:
                lengths[found] -= 1
            points[found][lengths[found]] = end
            lengths[found] += 1
        else:
            found = moves
            moves += 1
            points[found][0] = start
            points[found][1] = end
            lengths[found] = 2
            hit_lengths[found] = 0
        if hit:
            hit_points[found][hit_lengths[found]] = end
            hit_lengths[found] += 1
    # Moves along the same points are counted; their hit points are pooled.
    paths = 0
    for move in range(moves):
        found = -1
        for other in range(paths):
            if _same_path(points[path_of[other]], lengths[path_of[other]], points[move], lengths[move]):
                found = other
                break
        if found < 0:
            path_of[paths] = move
            path_counts[paths] = 1
            paths += 1
        else:
            path_counts[found] += 1
            for point_index in range(hit_lengths[move]):
                hit_points[path_of[found]][hit_lengths[path_of[found]]] = hit_points[move][point_index]
                hit_lengths[path_of[found]] += 1
    length = 0
    for other in range(paths):
        if other:
            out[length] = 32  # " "
            length += 1
        move = path_of[other]
        for point_index in range(lengths[move]):
            if point_index:
                out[length] = 47  # "/"
                length += 1
            length += _point_chars(points[move][point_index], out + length)
            for index in range(hit_lengths[move]):
                if hit_points[move][index] == points[move][point_index]:
                    out[length] = 42  # "*"
                    length += 1
                    break
        if path_counts[other] > 1:
            out[length] = 40  # "("
            out[length + 1] = <char>(48 + path_counts[other])
            out[length + 2] = 41  # ")"
            length += 3
    return length


cdef bint _same_path(const int* a, int a_length, const int* b, int b_length) noexcept:
    cdef int index
    if a_length != b_length:
        return False
    for index in range(a_length):
        if a[index] != b[index]:
            return False
    return True


def format_steps(steps):
    """Standard notation for ``steps``, a tuple of :class:`~engine.play.Step` (``play.format_steps``)."""
    cdef CStep given[4]
    cdef int count = len(steps)
    cdef int index
    if count > 4:
        return None
    for index in range(count):
        step = steps[index]
        given[index].start = step[0]
        given[index].end = step[1]
        given[index].die = step[2]
        given[index].hit = 1 if step[3] else 0
    return _notation(given, count)


# --- the search ---------------------------------------------------------------------------------

ctypedef struct Search:
    int rules
    int high
    int low
    count_t player[POINTS]  # changed and restored as the search goes
    count_t opponent[POINTS]
    bint held[POINTS]  # backgammon: the opponent holds the mover's point; long nardi, Fevga: it is blocked
    bint blot[POINTS]
    int head_leavers
    uint32_t mover_pins  # Plakoto: the mover's pinned points, as they stay through the turn
    uint32_t pinned  # Plakoto: the opponent's pinned points, changed and restored as the search goes
    uint32_t landings  # Plakoto, Fevga: the points 1-24 the mover may land on, the same through the turn
    bint ending  # Plakoto: the position searched now ends the game
    bint boards_apart  # Plakoto: no board is reached twice, so none is looked up
    CPlay* plays
    int count
    int capacity
    int* table  # indices into ``plays`` + 1 (0: empty), for the searches that keep each position once
    int table_size
    bint failed


cdef inline bint _same_way_round(int rules) noexcept nogil:
    # Long nardi's board, which Fevga shares: both sides move the same way round.
    return rules == LONG_NARDI_RULES or rules == FEVGA_RULES


cdef inline int _opponent_point(int rules, int point) noexcept nogil:
    if not _same_way_round(rules):
        return 25 - point
    return point + 12 if point <= 12 else point - 12


cdef int _bear_off_start(const count_t* player, int die, int highest) noexcept nogil:
    # ``variant.bear_off_start``: the point from which ``die`` bears off, or NO_POINT.
    cdef int point, start
    for point in range(7, POINTS):
        if player[point]:
            return NO_POINT
    if die <= highest and player[die]:
        return die
    start = highest if highest < 6 else 6
    while start > 0:
        if player[start]:
            if start < die:
                for point in range(start + 1, 7):
                    if player[point]:
                        return NO_POINT
                return start
            return NO_POINT
        start -= 1
    return NO_POINT


cdef void _start_search(
    Search* search, int rules, const count_t* player, const count_t* opponent, uint32_t mover_pins,
    uint32_t pinned, int high, int low
) noexcept:
    cdef int point, opposite
    search.rules = rules
    search.mover_pins = mover_pins
    search.pinned = pinned
    search.ending = False
    search.boards_apart = False
    search.landings = 0  # Plakoto and Fevga
    for point in range(1, 25):
        if (
            _plakoto_may_land(opponent, mover_pins, point) if rules == PLAKOTO_RULES
            else opponent[_opponent_point(rules, point)] == 0
        ):
            search.landings |= <uint32_t>1 << point
    search.high = high
    search.low = low
    memcpy(search.player, player, POINTS)
    memcpy(search.opponent, opponent, POINTS)
    search.held[OFF] = search.held[BAR] = False
    search.blot[OFF] = search.blot[BAR] = False
    for point in range(1, 25):
        opposite = _opponent_point(rules, point)
        if rules == BACKGAMMON_RULES:
            search.held[point] = opponent[opposite] >= 2
            search.blot[point] = opponent[opposite] == 1
        else:
            search.held[point] = opponent[opposite] != 0
            search.blot[point] = False
    search.head_leavers = 1
    if rules == LONG_NARDI_RULES and player[HEAD] == 15 and high == low and (high == 3 or high == 4 or high == 6):
        search.head_leavers = 2
    search.plays = NULL
    search.count = 0
    search.capacity = 0
    search.table = NULL
    search.table_size = 0
    search.failed = False


cdef CPlay* _new_play(Search* search) noexcept nogil:
    cdef int capacity
    cdef CPlay* grown
    if search.count == search.capacity:
        capacity = 64 if search.capacity == 0 else search.capacity * 2
        grown = <CPlay*>realloc(search.plays, capacity * sizeof(CPlay))
        if grown == NULL:
            search.failed = True
            return NULL
        search.plays = grown
        search.capacity = capacity
    search.count += 1
    return &search.plays[search.count - 1]


cdef inline void _fill(Search* search, CPlay* play, const CStep* steps, int count, uint32_t hits) noexcept nogil:
    play.count = count
    if count:
        memcpy(play.steps, steps, count * sizeof(CStep))
    memcpy(play.player, search.player, POINTS)
    play.hits = hits
    play.pinned = search.pinned
    play.ended = search.ending


cdef void _append(Search* search, const CStep* steps, int count, uint32_t hits) noexcept nogil:
    cdef CPlay* play = _new_play(search)
    if play != NULL:
        _fill(search, play, steps, count, hits)


cdef inline uint64_t _hash(const count_t* player, uint32_t hits, uint32_t pinned) noexcept nogil:
    # The mover's points 1-25 (off follows from them), the hits and the pins, eight counts a word.
    cdef uint64_t words[3]
    memcpy(words, player + 1, 24)
    cdef uint64_t value = (
        words[0] * 0x9E3779B97F4A7C15ULL
        ^ words[1] * 0xC2B2AE3D27D4EB4FULL
        ^ words[2] * 0x165667B19E3779F9ULL
        ^ (<uint64_t>player[BAR] << 32 | hits) * 0xD6E8FEB86659FD93ULL
        ^ <uint64_t>pinned * 0xA0761D6478BD642FULL
    )
    return value ^ (value >> 29)


cdef inline bint _same(const count_t* a, const count_t* b) noexcept nogil:
    return memcmp(a + 1, b + 1, POINTS - 1) == 0


cdef inline void _place(int* table, int size, uint64_t hash, int index) noexcept nogil:
    # Entry ``index`` (stored as index + 1: 0 is an empty slot) at the first free slot from its
    # hash on, in a table of ``size`` slots (a power of two) with a free one left.
    cdef int slot = <int>(hash & (size - 1))
    while table[slot]:
        slot = (slot + 1) & (size - 1)
    table[slot] = index + 1


cdef bint _grow_table(Search* search) noexcept nogil:
    cdef int size = 256 if search.table_size == 0 else search.table_size * 2
    cdef int* table = <int*>malloc(size * sizeof(int))
    cdef int index
    cdef CPlay* play
    if table == NULL:
        search.failed = True
        return False
    memset(table, 0, size * sizeof(int))
    for index in range(search.count):
        play = &search.plays[index]
        _place(table, size, _hash(play.player, play.hits, play.pinned), index)
    free(search.table)
    search.table = table
    search.table_size = size
    return True


cdef void _record(Search* search, const CStep* steps, int count, uint32_t hits) noexcept nogil:
    # ``is_better_way``: each position once, with the longer way to it, and of two one-die ways
    # the higher die's; the first found keeps its place.
    cdef int slot, index
    cdef CPlay* known
    if search.count * 2 >= search.table_size and not _grow_table(search):
        return
    slot = <int>(_hash(search.player, hits, search.pinned) & (search.table_size - 1))
    while search.table[slot]:
        index = search.table[slot] - 1
        known = &search.plays[index]
        if known.hits == hits and known.pinned == search.pinned and _same(known.player, search.player):
            if count > known.count or (count == known.count == 1 and steps[0].die > known.steps[0].die):
                _fill(search, known, steps, count, hits)
            return
        slot = (slot + 1) & (search.table_size - 1)
    index = search.count
    _append(search, steps, count, hits)
    if not search.failed:
        search.table[slot] = index + 1


cdef int _steps_of(Search* search, int die, int highest, uint32_t hits, int left_head, CStep* out) noexcept nogil:
    # The single steps with ``die`` from points no higher than ``highest``, highest start first,
    # then the bearing off (``_Search.steps`` of either variant).
    cdef count_t* player = search.player
    cdef int count = 0
    cdef int start, end, top
    if search.rules == BACKGAMMON_RULES and player[BAR]:
        end = BAR - die
        if not search.held[end]:
            out[0].start = BAR
            out[0].end = end
            out[0].die = die
            out[0].hit = search.blot[end] and not (hits >> end & 1)
            return 1
        return 0
    top = highest if highest < 24 else 24
    start = top
    while start > die:
        if player[start] and not search.held[start - die]:
            if search.rules == LONG_NARDI_RULES and start == HEAD and left_head >= search.head_leavers:
                start -= 1
                continue
            end = start - die
            out[count].start = start
            out[count].end = end
            out[count].die = die
            out[count].hit = search.blot[end] and not (hits >> end & 1)
            count += 1
        start -= 1
    start = _bear_off_start(player, die, highest)
    if start != NO_POINT:
        out[count].start = start
        out[count].end = OFF
        out[count].die = die
        out[count].hit = 0
        count += 1
    return count


cdef inline void _make(Search* search, CStep step) noexcept nogil:
    search.player[step.start] -= 1
    search.player[step.end] += 1


cdef inline void _unmake(Search* search, CStep step) noexcept nogil:
    search.player[step.start] += 1
    search.player[step.end] -= 1


cdef inline uint32_t _with_hit(uint32_t hits, CStep step) noexcept nogil:
    return hits | (<uint32_t>1 << step.end) if step.hit else hits


cdef void _two(Search* search, int first, int second) noexcept nogil:
    # One die, then the other (``_Search.two``).
    cdef CStep firsts[30]
    cdef CStep seconds[30]
    cdef CStep taken[2]
    cdef int first_count, second_count, index, other
    cdef uint32_t hits
    cdef bint on_head
    first_count = _steps_of(search, first, BAR, 0, 0, firsts)
    if search.rules == LONG_NARDI_RULES:
        _record(search, taken, 0, 0)
    for index in range(first_count):
        taken[0] = firsts[index]
        _make(search, taken[0])
        hits = _with_hit(0, taken[0])
        on_head = taken[0].start == HEAD
        second_count = _steps_of(search, second, BAR, hits, 1 if on_head else 0, seconds)
        if search.rules == LONG_NARDI_RULES or not second_count:
            _record(search, taken, 1, hits)
        for other in range(second_count):
            taken[1] = seconds[other]
            _make(search, taken[1])
            _record(search, taken, 2, _with_hit(hits, taken[1]))
            _unmake(search, taken[1])
        _unmake(search, taken[0])
    if search.rules == BACKGAMMON_RULES and search.count == 0:
        _record(search, taken, 0, 0)


cdef void _double(Search* search, int die, int left, int highest, CStep* taken, int count, uint32_t hits) noexcept nogil:
    # A double's steps from the highest start down: each multiset of starts, so each position, once
    # (``_Search.double``). Backgammon keeps the sequences that cannot go on; long nardi every prefix.
    cdef CStep moves[30]
    cdef int move_count, index, left_head, step_index
    left_head = 0
    if search.rules == LONG_NARDI_RULES:
        for step_index in range(count):
            if taken[step_index].start == HEAD:
                left_head += 1
    move_count = _steps_of(search, die, highest, hits, left_head, moves)
    if search.rules == BACKGAMMON_RULES and not move_count:
        _append(search, taken, count, hits)
        return
    for index in range(move_count):
        taken[count] = moves[index]
        _make(search, moves[index])
        if search.rules == LONG_NARDI_RULES:
            _append(search, taken, count + 1, 0)
            if left > 1:
                _double(search, die, left - 1, moves[index].start, taken, count + 1, 0)
        elif left > 1:
            _double(search, die, left - 1, moves[index].start, taken, count + 1, _with_hit(hits, moves[index]))
        else:
            _append(search, taken, count + 1, _with_hit(hits, moves[index]))
        _unmake(search, moves[index])


ctypedef struct Run:
    # A checker moved by both dice from one start (backgammon's ``_two_dice_in_the_field``).
    int start
    int hit_between  # the point between, if it hit there; else 0
    int hit_end
    CStep steps[2]


cdef inline void _add_run(Run* runs, int* count, int start, int hit_between, int hit_end, CStep a, CStep b) noexcept nogil:
    # ``runs.setdefault``: the first way found for a run keeps its place.
    cdef int index
    for index in range(count[0]):
        if runs[index].start == start and runs[index].hit_between == hit_between and runs[index].hit_end == hit_end:
            return
    runs[count[0]].start = start
    runs[count[0]].hit_between = hit_between
    runs[count[0]].hit_end = hit_end
    runs[count[0]].steps[0] = a
    runs[count[0]].steps[1] = b
    count[0] += 1


cdef inline CStep _field_step(Search* search, int start, int die) noexcept nogil:
    cdef CStep step
    step.start = start
    step.end = start - die
    step.die = die
    step.hit = search.blot[start - die]
    return step


cdef void _two_in_the_field(Search* search) noexcept nogil:
    # Backgammon's ``_two_dice_in_the_field``, in its order: a non-double with nothing on the bar
    # and two or more checkers outside the home board, so no step bears off. Every pair of steps
    # from two checkers is a play of its own; a checker moved by both dice (a run) is told apart
    # by its start and its hits. Finds nothing when no play uses both dice.
    cdef int high = search.high
    cdef int low = search.low
    cdef count_t* player = search.player
    cdef CStep firsts[24]
    cdef CStep seconds[24]
    cdef Run runs[64]
    cdef CStep pair[2]
    cdef int first_count = 0
    cdef int second_count = 0
    cdef int run_count = 0
    cdef int start, index, other
    cdef bint alone
    cdef CStep first, second
    cdef uint32_t hits
    cdef count_t original[POINTS]
    memcpy(original, player, POINTS)
    start = 24
    while start > high:
        if player[start] and not search.held[start - high]:
            firsts[first_count] = _field_step(search, start, high)
            first_count += 1
        start -= 1
    start = 24
    while start > low:
        if player[start] and not search.held[start - low]:
            seconds[second_count] = _field_step(search, start, low)
            second_count += 1
        start -= 1
    for index in range(first_count):
        first = firsts[index]
        alone = original[first.start] == 1
        _make(search, first)
        for other in range(second_count):
            second = seconds[other]
            if second.start == first.end:
                _add_run(runs, &run_count, first.start, first.end if first.hit else 0, second.hit, first, second)
                continue
            if second.end == first.start:
                _add_run(runs, &run_count, second.start, 0, first.hit, second, first)
                continue
            if second.start == first.start and alone:
                continue
            if first.hit and second.end == first.end:
                second.hit = 0
            _make(search, second)
            pair[0] = first
            pair[1] = second
            hits = _with_hit(_with_hit(0, first), second)
            _append(search, pair, 2, hits)
            _unmake(search, second)
        _unmake(search, first)
        if not original[first.end] and first.end > low and not search.held[first.end - low]:
            second = _field_step(search, first.end, low)
            _add_run(runs, &run_count, first.start, first.end if first.hit else 0, second.hit, first, second)
    for index in range(second_count):
        first = seconds[index]
        if not original[first.end] and first.end > high and not search.held[first.end - high]:
            second = _field_step(search, first.end, high)
            _add_run(runs, &run_count, first.start, first.end if first.hit else 0, second.hit, first, second)
    for index in range(run_count):
        first = runs[index].steps[0]
        second = runs[index].steps[1]
        player[first.start] -= 1
        player[second.end] += 1
        _append(search, runs[index].steps, 2, _with_hit(_with_hit(0, first), second))
        player[first.start] += 1
        player[second.end] -= 1


# --- Plakoto and Fevga: every order of the dice and of the checkers ------------------------------

ctypedef struct Node:
    # A board met in the search, with the dice left (a mask over the roll's dice, in their order)
    # and the first steps found to it.
    count_t player[POINTS]
    uint32_t pinned
    int left
    int count
    CStep steps[4]


ctypedef struct Nodes:
    # The boards met, each (checkers, pins, dice left) once, in the order first met.
    Node* nodes
    int count
    int capacity
    int* table  # indices into ``nodes`` + 1 (0: empty)
    int table_size
    bint failed


cdef extern from *:
    int __builtin_clz(unsigned int bits) nogil


cdef inline uint32_t _eight_held(const count_t* counts) noexcept nogil:
    # Which of eight counts (each 0-15) are not 0, as the low 8 bits: the counts read as one word,
    # the first in its lowest byte; adding 0x7F to a byte sets its top bit unless it is 0 (no byte
    # carries, every count being below 0x81), and the multiplication gathers the eight top bits
    # into the word's highest byte.
    cdef uint64_t word = (
        <uint64_t><uint8_t>counts[0] | <uint64_t><uint8_t>counts[1] << 8
        | <uint64_t><uint8_t>counts[2] << 16 | <uint64_t><uint8_t>counts[3] << 24
        | <uint64_t><uint8_t>counts[4] << 32 | <uint64_t><uint8_t>counts[5] << 40
        | <uint64_t><uint8_t>counts[6] << 48 | <uint64_t><uint8_t>counts[7] << 56
    )
    word = (word + 0x7F7F7F7F7F7F7F7FULL) & 0x8080808080808080ULL
    return <uint32_t>(((word >> 7) * 0x0102040810204080ULL) >> 56)


cdef inline uint32_t _occupied(const count_t* player) noexcept nogil:
    # The mover's points 1-24 that hold a checker, as a mask (a search asks this at every node).
    return (_eight_held(player + 1) | _eight_held(player + 9) << 8 | _eight_held(player + 17) << 16) << 1


cdef inline int _starts_steps(uint32_t starts, int die, CStep* out) noexcept nogil:
    # A step of ``die`` from each point of ``starts`` (none off the board), the highest first.
    cdef int count = 0
    cdef int start
    while starts:
        start = 31 - __builtin_clz(starts)
        starts &= ~(<uint32_t>1 << start)
        out[count].start = start
        out[count].end = start - die
        out[count].die = die
        out[count].hit = 0
        count += 1
    return count


cdef inline void _start_nodes(Nodes* nodes) noexcept nogil:
    memset(nodes, 0, sizeof(Nodes))


cdef inline void _free_nodes(Nodes* nodes) noexcept nogil:
    free(nodes.nodes)
    free(nodes.table)


cdef inline void _clear_nodes(Nodes* nodes) noexcept nogil:
    # Empty, keeping the memory for the next layer.
    if nodes.table != NULL:
        memset(nodes.table, 0, nodes.table_size * sizeof(int))
    nodes.count = 0


cdef inline uint64_t _node_hash(const count_t* player, uint32_t pinned, int left) noexcept nogil:
    return _hash(player, 0, pinned) ^ <uint64_t>left * 0xE7037ED1A0B428DBULL


cdef bint _grow_nodes(Nodes* nodes) noexcept nogil:
    cdef int size = 256 if nodes.table_size == 0 else nodes.table_size * 2
    cdef int* table = <int*>malloc(size * sizeof(int))
    cdef Node* grown = <Node*>realloc(nodes.nodes, (size // 2) * sizeof(Node))
    cdef int index
    cdef Node* node
    if table == NULL or grown == NULL:
        free(table)
        if grown != NULL:
            nodes.nodes = grown
        nodes.failed = True
        return False
    nodes.nodes = grown
    nodes.capacity = size // 2
    memset(table, 0, size * sizeof(int))
    for index in range(nodes.count):
        node = &nodes.nodes[index]
        _place(table, size, _node_hash(node.player, node.pinned, node.left), index)
    free(nodes.table)
    nodes.table = table
    nodes.table_size = size
    return True


cdef bint _add_node(
    Nodes* nodes, const count_t* player, uint32_t pinned, int left, const CStep* steps, int count
) noexcept nogil:
    # Whether the board is new with these dice left (and so now kept, with ``steps``).
    cdef int slot, index
    cdef Node* node
    if nodes.count * 2 >= nodes.table_size and not _grow_nodes(nodes):
        return False
    slot = <int>(_node_hash(player, pinned, left) & (nodes.table_size - 1))
    while nodes.table[slot]:
        node = &nodes.nodes[nodes.table[slot] - 1]
        if node.left == left and node.pinned == pinned and _same(node.player, player):
            return False
        slot = (slot + 1) & (nodes.table_size - 1)
    node = &nodes.nodes[nodes.count]
    memcpy(node.player, player, POINTS)
    node.pinned = pinned
    node.left = left
    node.count = count
    if count:
        memcpy(node.steps, steps, count * sizeof(CStep))
    nodes.count += 1
    nodes.table[slot] = nodes.count
    return True


cdef inline int _roll_dice(int high, int low, int* dice) noexcept nogil:
    # The roll's dice in the order the pure searches take them: (high, low), or a double's four.
    if high == low:
        dice[0] = dice[1] = dice[2] = dice[3] = high
        return 4
    dice[0] = high
    dice[1] = low
    return 2


cdef inline bint _die_taken_before(const int* dice, int left, int index) noexcept nogil:
    # Whether a die of the same value comes earlier among those left: each value is tried once.
    cdef int earlier
    for earlier in range(index):
        if left >> earlier & 1 and dice[earlier] == dice[index]:
            return True
    return False


cdef bint _plakoto_over(
    const count_t* player, const count_t* opponent, uint32_t mover_pins, uint32_t pinned
) noexcept nogil:
    # ``Plakoto.result`` is not None, with the mother exception: a side has borne off all its
    # checkers, or a pinned mother ends the game (both: a draw).
    cdef bint mine, theirs
    if player[OFF] == 15 or opponent[OFF] == 15:
        return True
    mine = player[HEAD] == 1 and mover_pins >> HEAD & 1
    theirs = opponent[HEAD] == 1 and pinned >> HEAD & 1
    return (mine and theirs) or (mine and not opponent[HEAD]) or (theirs and not player[HEAD])


cdef inline bint _plakoto_may_land(const count_t* opponent, uint32_t mover_pins, int end) noexcept nogil:
    # ``plakoto._may_land``: never where the opponent has two or more, nor on a checker of the
    # mover's that it pins.
    return opponent[25 - end] < 2 and not (mover_pins >> end & 1)


cdef inline uint32_t _pinned_after(
    const count_t* player, const count_t* opponent, uint32_t pinned, CStep step
) noexcept nogil:
    # ``plakoto._after_step``'s pins, ``player`` already moved: a lone checker landed on is
    # pinned, and one pinned where the mover's last checker left is freed.
    if step.end != OFF and opponent[25 - step.end] == 1:
        pinned |= <uint32_t>1 << (25 - step.end)
    if not player[step.start]:
        pinned &= ~(<uint32_t>1 << (25 - step.start))
    return pinned


cdef int _plakoto_steps(Search* search, int die, int highest, CStep* out) noexcept nogil:
    # ``Plakoto._steps`` from points no higher than ``highest``: from the highest start down, then
    # the bearing off.
    cdef count_t* player = search.player
    cdef uint32_t mover_pins = search.mover_pins
    cdef uint32_t up_to_highest = (<uint32_t>2 << highest) - 1
    cdef uint32_t occupied = _occupied(player)
    cdef int start
    cdef int count = _starts_steps(occupied & ~mover_pins & (search.landings << die) & up_to_highest, die, out)
    # A pinned checker stops the bearing off, and so does a checker outside the home board.
    if not mover_pins and not occupied >> 7:
        start = _bear_off_start(player, die, highest)
        if start != NO_POINT:
            out[count].start = start
            out[count].end = OFF
            out[count].die = die
            out[count].hit = 0
            count += 1
    return count


cdef void _plakoto_search(
    Search* search, Nodes* searched, const int* dice, int dice_count, int left, int highest, CStep* taken,
    int count
) noexcept nogil:
    # ``Plakoto._step_sequences``: depth first, each die value left in turn, from the highest start
    # down; every board met is recorded, and a step that ends the game ends the play. With
    # ``searched``, each board with the same dice left is followed once; without it, the caller
    # knows that no board is met twice (a roll of two dice), or a double's steps go from the
    # highest start down (``highest``), each set of steps once, in the order the full search
    # first meets them. When no board is met twice and no play ends the game (``boards_apart``),
    # only the plays that cannot go on are kept: one that can is shorter than its continuations,
    # which the maximum-use rule prefers.
    cdef CStep moves[30]
    cdef int move_count, index, move
    cdef uint32_t pinned = search.pinned
    cdef bint ending
    cdef bint went_on = False
    cdef bint descending = searched == NULL and dice[0] == dice[1]
    if searched != NULL and not _add_node(searched, search.player, pinned, left, NULL, 0):
        search.failed = search.failed or searched.failed
        return
    if search.boards_apart:
        ending = False
    else:
        ending = count > 0 and _plakoto_over(search.player, search.opponent, search.mover_pins, pinned)
        search.ending = ending
        _record(search, taken, count, 0)
        search.ending = False
    for index in range(dice_count):
        if not left or ending:
            break
        if not (left >> index & 1) or _die_taken_before(dice, left, index):
            continue
        move_count = _plakoto_steps(search, dice[index], highest, moves)
        went_on = went_on or move_count > 0
        for move in range(move_count):
            taken[count] = moves[move]
            _make(search, moves[move])
            search.pinned = _pinned_after(search.player, search.opponent, pinned, moves[move])
            _plakoto_search(
                search, searched, dice, dice_count, left & ~(1 << index),
                moves[move].start if descending else HEAD, taken, count + 1,
            )
            _unmake(search, moves[move])
            search.pinned = pinned
    if search.boards_apart and not went_on:
        _append(search, taken, count, 0)


cdef void _plakoto_two_in_the_field(Search* search) noexcept nogil:
    # Plakoto's plays of both dice of a roll that is not a double, when no step can bear off or
    # end the game (two or more checkers outside the home board; the opponent's mother not alone
    # on its 24-point): the plays ``_plakoto_search`` keeps, in its order, with no board looked up.
    # Whether a step may land does not change in the turn, so every play of the low die then the
    # high is one of the high then the low, but for a checker that takes both dice and may touch
    # down only on the low die's point. Of the high die's first, two reach the same board: the
    # high from a point and the low from the point a low die above, and one checker taking both
    # dice from there, which comes first. Finds nothing when no play uses both dice.
    cdef CStep firsts[30]
    cdef CStep seconds[30]
    cdef CStep pair[2]
    cdef int first_count, second_count, index, other, order, first_die, second_die
    cdef uint32_t pinned = search.pinned
    cdef uint32_t after_first
    cdef count_t original[POINTS]
    memcpy(original, search.player, POINTS)
    for order in range(2):
        first_die = search.high if order == 0 else search.low
        second_die = search.low if order == 0 else search.high
        first_count = _plakoto_steps(search, first_die, HEAD, firsts)
        for index in range(first_count):
            pair[0] = firsts[index]
            _make(search, pair[0])
            after_first = _pinned_after(search.player, search.opponent, pinned, pair[0])
            second_count = _plakoto_steps(search, second_die, HEAD, seconds)
            for other in range(second_count):
                pair[1] = seconds[other]
                if order == 0 and (
                    pair[1].start == pair[0].start + search.low
                    and search.landings >> (pair[1].start - search.high) & 1
                ):
                    continue  # the same play as one checker's from pair[1].start, found before
                if order == 1 and not (
                    pair[1].start == pair[0].end
                    and not original[pair[0].end]
                    and not (search.landings >> (pair[0].start - search.high) & 1)
                ):
                    continue  # the same play as the high die's first
                _make(search, pair[1])
                search.pinned = _pinned_after(search.player, search.opponent, after_first, pair[1])
                _append(search, pair, 2, 0)
                _unmake(search, pair[1])
            _unmake(search, pair[0])
    search.pinned = pinned


cdef inline bint _fevga_passed(const count_t* player) noexcept nogil:
    # Whether a checker has passed the opponent's start (``Fevga.first_checker_starts`` is None).
    cdef int point
    for point in range(PAST_START + 1):
        if player[point]:
            return True
    return False


cdef int _fevga_starts(const count_t* player) noexcept nogil:
    # The first checker: until a checker has passed the opponent's start, only those off the
    # 24-point move (while none is, one from there). So a checker may move from any point up to
    # the one returned: the 24-point (any checker, or only the first from there, when it alone
    # has checkers) or the 23-point (only those off the 24-point).
    cdef int point
    if _fevga_passed(player):
        return HEAD
    for point in range(1, HEAD):
        if player[point]:
            return HEAD - 1
    return HEAD


cdef inline bint _fevga_may_move(const count_t* player, int start) noexcept nogil:
    # Whether the first-checker rule lets the checker on ``start`` move.
    return start <= _fevga_starts(player)


cdef int _fevga_steps(Search* search, int die, CStep* out) noexcept nogil:
    # ``Fevga._steps``: from the highest start down, then the bearing off.
    cdef count_t* player = search.player
    cdef uint32_t up_to_highest = (<uint32_t>2 << _fevga_starts(player)) - 1
    cdef int start
    cdef int count = _starts_steps(_occupied(player) & (search.landings << die) & up_to_highest, die, out)
    start = _bear_off_start(player, die, 6)
    if start != NO_POINT and _fevga_may_move(player, start):
        out[count].start = start
        out[count].end = OFF
        out[count].die = die
        out[count].hit = 0
        count += 1
    return count


cdef void _fevga_search(Search* search, const int* dice, int dice_count) noexcept nogil:
    # ``Fevga._step_sequences``: a layer of boards a step, each board with the same dice left
    # followed once with the first steps found to it; every board met is recorded.
    cdef Nodes layers[2]
    cdef Nodes* layer
    cdef Nodes* following
    cdef Node* node
    cdef CStep moves[30]
    cdef CStep sequence[4]
    cdef count_t original[POINTS]
    cdef int index, die_index, move_count, move, left
    memcpy(original, search.player, POINTS)
    _start_nodes(&layers[0])
    _start_nodes(&layers[1])
    layer, following = &layers[0], &layers[1]
    _record(search, sequence, 0, 0)
    _add_node(layer, search.player, 0, (1 << dice_count) - 1, NULL, 0)
    while layer.count and not (layer.failed or following.failed):
        for index in range(layer.count):
            node = &layer.nodes[index]
            for die_index in range(dice_count):
                if not (node.left >> die_index & 1) or _die_taken_before(dice, node.left, die_index):
                    continue
                memcpy(search.player, node.player, POINTS)
                move_count = _fevga_steps(search, dice[die_index], moves)
                if node.count:
                    memcpy(sequence, node.steps, node.count * sizeof(CStep))
                left = node.left & ~(1 << die_index)
                for move in range(move_count):
                    sequence[node.count] = moves[move]
                    _make(search, moves[move])
                    if left:  # a board with no dice left goes no further
                        _add_node(following, search.player, 0, left, sequence, node.count + 1)
                    _record(search, sequence, node.count + 1, 0)
                    _unmake(search, moves[move])
        _clear_nodes(layer)
        layer, following = following, layer
    if layer.failed or following.failed:
        search.failed = True
    _free_nodes(&layers[0])
    _free_nodes(&layers[1])
    memcpy(search.player, original, POINTS)


cdef inline bint _holds_start_quarter(const count_t* player) noexcept nogil:
    # Fevga's starting-quarter rule: no side may hold all six of its points 19-24.
    cdef int point
    for point in range(START_QUARTER, 25):
        if not player[point]:
            return False
    return True


cdef bint _prime_to_open(const count_t* player, const count_t* opponent, int* prime) noexcept nogil:
    # ``Fevga.prime_to_open``: whether the mover must open one of the six points (``prime``) in
    # front of the opponent's checkers, all on one point, its 7-point or higher.
    cdef int point, index
    cdef int occupied = 0
    cdef int found = 0
    for point in range(1, 25):
        if opponent[point]:
            occupied += 1
            found = point
    if occupied != 1 or found < 7:
        return False
    for index in range(6):
        prime[index] = _opponent_point(FEVGA_RULES, found - 1 - index)
        if not player[prime[index]]:
            return False
    return True


cdef inline bint _opens(const count_t* player, const int* prime) noexcept nogil:
    cdef int index
    for index in range(6):
        if not player[prime[index]]:
            return True
    return False



# The mover's points in the order the opponent passes them (long nardi).
cdef int _ALONG_OPPONENTS_PATH[24]
for _index in range(12):
    _ALONG_OPPONENTS_PATH[_index] = 13 + _index
    _ALONG_OPPONENTS_PATH[12 + _index] = 1 + _index


cdef bint _six_in_a_row(const count_t* player, const count_t* opponent) noexcept nogil:
    # ``LongNardi.six_in_a_row`` is not None.
    cdef int run = 0
    cdef int index, first, point
    cdef bint passed
    if opponent[OFF]:
        return False
    for index in range(24):
        run = run + 1 if player[_ALONG_OPPONENTS_PATH[index]] else 0
        if run >= 6:
            first = index - 4
            passed = False
            for point in range(1, first):
                if opponent[point]:
                    passed = True
                    break
            if not passed:
                return True
    return False


cdef inline int _outside_home(const count_t* player) noexcept nogil:
    cdef int point
    cdef int count = 0
    for point in range(7, 25):
        count += player[point]
    return count


cdef inline bint _refused_whole(Search* search, const CPlay* play) noexcept nogil:
    # A rule judged on the whole play: long nardi's six in a row, Fevga's starting quarter.
    if search.rules == LONG_NARDI_RULES:
        return _six_in_a_row(play.player, search.opponent)
    if search.rules == FEVGA_RULES:
        return _holds_start_quarter(play.player)
    return False


cdef void _keep_ending(Search* search) noexcept nogil:
    # Plakoto's plays when one ends the game (``Variant._apply_maximum_use`` with ``ending``): those
    # that use every die, then those that end the game with fewer, each kind in its order.
    cdef int whole = 4 if search.high == search.low else 2
    cdef int index, kept
    cdef CPlay* ordered = <CPlay*>malloc(search.count * sizeof(CPlay))
    if ordered == NULL:
        search.failed = True
        return
    kept = 0
    for index in range(search.count):
        if search.plays[index].count == whole:
            ordered[kept] = search.plays[index]
            kept += 1
    for index in range(search.count):
        if search.plays[index].count < whole and search.plays[index].ended:
            ordered[kept] = search.plays[index]
            kept += 1
    free(search.plays)
    search.plays = ordered
    search.count = kept
    search.capacity = search.count


cdef void _keep_legal(Search* search) noexcept nogil:
    # The rules judged on the whole play, then the maximum-use rule (``Variant._apply_maximum_use``):
    # the longest plays that the rules allow. Shorter ones are looked at only when they allow none
    # of the longer: the play with the most dice they allow is the play. Then Fevga's unblocking.
    cdef int index, kept, most
    cdef bint higher_found
    cdef int prime[6]
    if search.rules == PLAKOTO_RULES:
        for index in range(search.count):
            if search.plays[index].ended:
                _keep_ending(search)
                return
    most = 0
    for index in range(search.count):
        if search.plays[index].count > most:
            most = search.plays[index].count
    while True:
        kept = 0
        for index in range(search.count):
            if search.plays[index].count == most and not _refused_whole(search, &search.plays[index]):
                if kept != index:
                    search.plays[kept] = search.plays[index]
                kept += 1
        if kept or most == 0:
            break
        most -= 1
    search.count = kept
    if most == 1 and search.high != search.low:
        higher_found = False
        for index in range(search.count):
            if search.plays[index].steps[0].die == search.high:
                higher_found = True
        if higher_found:
            kept = 0
            for index in range(search.count):
                if search.plays[index].steps[0].die == search.high:
                    if kept != index:
                        search.plays[kept] = search.plays[index]
                    kept += 1
            search.count = kept
    if search.rules == FEVGA_RULES and _prime_to_open(search.player, search.opponent, prime):
        kept = 0
        for index in range(search.count):
            if _opens(search.plays[index].player, prime):
                if kept != index:
                    search.plays[kept] = search.plays[index]
                kept += 1
        if kept:
            search.count = kept


# --- plays in protobuf's wire format -------------------------------------------------------------
# ``wire.play_message``: tavli.v1's Play (notation 1, steps 2, position_id 3, hits 4; a Step's
# from_point 1, to_point 2, die 3, hit 4), fields in their numbers' order, those at their
# default value left out, as protobuf serializes a message.

cdef enum:
    WIRE_VARINT = 0
    WIRE_LENGTH_DELIMITED = 2
    MOST_VARINT = 10
    MOST_STEP_MESSAGE = 10  # four one-byte fields and their tags
    MOST_PLAY_MESSAGE = 2 + MOST_NOTATION + 4 * (2 + MOST_STEP_MESSAGE) + 16 + PINS_TEXT_SIZE + 2


cdef inline int _varint(uint64_t value, char* out) noexcept nogil:
    cdef int length = 0
    while value >= 0x80:
        out[length] = <char>(value & 0x7F | 0x80)
        value >>= 7
        length += 1
    out[length] = <char>value
    return length + 1


cdef inline int _small_field(int number, int value, char* out) noexcept nogil:
    # A varint field of a value under 128, if it is not 0 (the default, left out).
    if value == 0:
        return 0
    out[0] = <char>(number << 3 | WIRE_VARINT)
    out[1] = <char>value
    return 2


cdef int _play_message(const CPlay* play, tavli_bits id_bits, uint32_t mover_pins, char* out) noexcept:
    cdef int length = 2
    cdef int step_length, index
    cdef bint hits = False
    cdef int notation_length = _notation_chars(play.steps, play.count, out + 2)
    if notation_length:
        out[0] = <char>(1 << 3 | WIRE_LENGTH_DELIMITED)
        out[1] = <char>notation_length  # under 128: one byte
        length += notation_length
    else:
        length = 0
    for index in range(play.count):
        step_length = _small_field(1, play.steps[index].start, out + length + 2)
        step_length += _small_field(2, play.steps[index].end, out + length + 2 + step_length)
        step_length += _small_field(3, play.steps[index].die, out + length + 2 + step_length)
        step_length += _small_field(4, 1 if play.steps[index].hit else 0, out + length + 2 + step_length)
        out[length] = <char>(2 << 3 | WIRE_LENGTH_DELIMITED)
        out[length + 1] = <char>step_length
        length += 2 + step_length
        hits = hits or play.steps[index].hit
    # The Position ID: its 14 letters, and Plakoto's pins after them (under 128 bytes in all).
    cdef int pins_length = _pins_text(mover_pins, play.pinned, out + length + 16)
    out[length] = <char>(3 << 3 | WIRE_LENGTH_DELIMITED)
    out[length + 1] = <char>(14 + pins_length)
    _id_chars(id_bits, out + length + 2)
    length += 16 + pins_length
    return length + _small_field(4, 1 if hits else 0, out + length)


cdef class CompiledPlays:
    """The legal plays of one position and roll as C data: each one's steps and the mover's
    checkers after it. Python objects are made only for what is read."""

    cdef CPlay* _plays
    cdef int _count
    cdef count_t _opponent[POINTS]
    cdef object _opponent_side
    cdef uint32_t _mover_pins  # Plakoto: the mover's pinned points, the same after every play
    cdef readonly int dice_used  # how many dice every play uses (0 when the roll cannot be played)

    def __dealloc__(self):
        free(self._plays)

    def __len__(self):
        return self._count

    cdef void _opponent_after(self, uint32_t hits, count_t* opponent) noexcept:
        cdef int point
        memcpy(opponent, self._opponent, POINTS)
        for point in range(1, 25):
            if hits >> point & 1:
                opponent[25 - point] -= 1
                opponent[BAR] += 1

    cdef tavli_bits _id_bits(self, CPlay* play, tavli_bits quiet, int quiet_start) noexcept:
        """The bits of the Position ID after ``play``; ``quiet`` and ``quiet_start``, the
        opponent's bits and the bit after them when nothing is hit, are shared by every play."""
        cdef count_t opponent[POINTS]
        cdef tavli_bits bits
        if play.hits:
            self._opponent_after(play.hits, opponent)
            bits = 0
            _side_bits(play.player, &bits, _side_bits(opponent, &bits, 0))
        else:
            bits = quiet
            _side_bits(play.player, &bits, quiet_start)
        return bits

    def plays(self):
        """Every play as a :class:`~engine.play.Play` (the steps and the position after them)."""
        cdef count_t opponent[POINTS]
        cdef int index
        cdef CPlay* play
        cdef dict opponent_after = {}
        cdef dict pins_made = {}
        _bind()
        result = []
        for index in range(self._count):
            play = &self._plays[index]
            if play.hits:
                opponent_side = opponent_after.get(play.hits)
                if opponent_side is None:
                    self._opponent_after(play.hits, opponent)
                    opponent_side = opponent_after[play.hits] = _side_tuple(opponent)
            else:
                opponent_side = self._opponent_side
            position = _position_object(
                _side_tuple(play.player), opponent_side, self._mover_pins, play.pinned, pins_made
            )
            result.append(_pair(_Play, _steps_tuple(play.steps, play.count), position))
        return result

    def play(self, int index):
        """The play at ``index`` alone, as :meth:`plays` makes it."""
        cdef count_t opponent[POINTS]
        cdef CPlay* play
        if index < 0:
            index += self._count
        if not 0 <= index < self._count:
            raise IndexError("no play at that index")
        _bind()
        play = &self._plays[index]
        if play.hits:
            self._opponent_after(play.hits, opponent)
            opponent_side = _side_tuple(opponent)
        else:
            opponent_side = self._opponent_side
        position = _position_object(_side_tuple(play.player), opponent_side, self._mover_pins, play.pinned)
        return _pair(_Play, _steps_tuple(play.steps, play.count), position)

    def position_ids(self):
        """Each play's resulting Position ID, the mover still first (with its pins, if any)."""
        cdef int index, quiet_start
        cdef tavli_bits quiet = 0
        cdef CPlay* play
        quiet_start = _side_bits(self._opponent, &quiet, 0)  # the opponent's bits when nothing is hit
        result = []
        for index in range(self._count):
            play = &self._plays[index]
            result.append(_id_text(self._id_bits(play, quiet, quiet_start), self._mover_pins, play.pinned))
        return result

    def notations(self):
        """Each play in standard notation."""
        cdef int index
        return [_notation(self._plays[index].steps, self._plays[index].count) for index in range(self._count)]

    def hits(self):
        """Whether each play hits a blot."""
        cdef int index
        return [self._plays[index].hits != 0 for index in range(self._count)]

    def plays_field(self, int field):
        """The plays as the repeated field number ``field`` of a protobuf message whose field
        holds tavli.v1's ``Play`` messages, in protobuf's wire format (``wire.plays_field``)."""
        cdef int index
        cdef Py_ssize_t at = 0
        cdef tavli_bits quiet = 0
        cdef int quiet_start = _side_bits(self._opponent, &quiet, 0)
        cdef char message[MOST_PLAY_MESSAGE]
        cdef CPlay* play
        cdef int length
        cdef char* out = <char*>malloc(self._count * (MOST_PLAY_MESSAGE + 2 * MOST_VARINT))
        if out == NULL:
            raise MemoryError()
        try:
            for index in range(self._count):
                play = &self._plays[index]
                length = _play_message(play, self._id_bits(play, quiet, quiet_start), self._mover_pins, message)
                at += _varint(<uint64_t>field << 3 | WIRE_LENGTH_DELIMITED, out + at)
                at += _varint(length, out + at)
                memcpy(out + at, message, length)
                at += length
            return PyBytes_FromStringAndSize(out, at)
        finally:
            free(out)


cdef void _search_plays(Search* search) noexcept nogil:
    # The legal plays of the search's position and roll, into ``search.plays`` (unless it fails).
    cdef CStep taken[4]
    cdef int dice[4]
    cdef int dice_count = _roll_dice(search.high, search.low, dice)
    cdef Nodes searched
    cdef CPlay* play
    if search.rules == PLAKOTO_RULES and search.high == search.low and search.opponent[HEAD] == 1:
        # A step may pin the opponent's mother, or free it to be pinned again: the game may end
        # in the middle of the play, and the order of a double's steps decides what is reached.
        _start_nodes(&searched)
        _plakoto_search(search, &searched, dice, dice_count, (1 << dice_count) - 1, HEAD, taken, 0)
        _free_nodes(&searched)
    elif search.rules == PLAKOTO_RULES:
        # Only the 15th checker borne off ends the game, and no step comes after it.
        if search.high != search.low and search.opponent[HEAD] != 1 and _outside_home(search.player) >= 2:
            _plakoto_two_in_the_field(search)
        # A double's steps, one set of steps each time, none bearing off: each set its own board
        # (what each point gains and loses says how many steps left it).
        search.boards_apart = search.high == search.low and _outside_home(search.player) >= 4
        if not search.count:
            _plakoto_search(search, NULL, dice, dice_count, (1 << dice_count) - 1, HEAD, taken, 0)
    elif search.rules == FEVGA_RULES:
        _fevga_search(search, dice, dice_count)
    elif search.high == search.low:
        if search.rules == LONG_NARDI_RULES:
            _append(search, taken, 0, 0)
        _double(search, search.high, 4, BAR, taken, 0, 0)
    else:
        if search.rules == BACKGAMMON_RULES and not search.player[BAR] and _outside_home(search.player) >= 2:
            _two_in_the_field(search)
        if not search.count:
            _two(search, search.high, search.low)
            _two(search, search.low, search.high)
    if not search.failed:
        _keep_legal(search)
    free(search.table)
    search.table = NULL
    if not search.failed and search.count == 0:  # every sequence broke a rule of the whole play: the roll is lost
        play = _new_play(search)
        if play != NULL:
            _fill(search, play, taken, 0, 0)


cdef int _read_pins(int rules, object position, uint32_t* mover_pins, uint32_t* pinned) except -1:
    # The position's pins as masks (Plakoto's; none under other rules).
    mover_pins[0] = pinned[0] = 0
    _bind()
    if rules == PLAKOTO_RULES and type(position) is not _Position:  # a bare pair has no pins
        pins = position.pins
        mover_pins[0] = _pin_mask(pins[0])
        pinned[0] = _pin_mask(pins[1])
    return 0


def legal_plays(int rules, position, int high, int low):
    """The legal plays of ``position`` with the dice ``high`` and ``low`` (the higher first) under
    ``rules`` (:data:`BACKGAMMON`, :data:`LONG_NARDI`, :data:`PLAKOTO` or :data:`FEVGA`), for a
    valid position whose game is not over."""
    cdef count_t player[POINTS]
    cdef count_t opponent[POINTS]
    cdef uint32_t mover_pins, pinned
    cdef Search search
    _read_position(position, player, opponent)
    _read_pins(rules, position, &mover_pins, &pinned)
    _start_search(&search, rules, player, opponent, mover_pins, pinned, high, low)
    _search_plays(&search)
    if search.failed:
        free(search.plays)
        raise MemoryError()
    cdef CompiledPlays result = CompiledPlays.__new__(CompiledPlays)
    result._plays = search.plays
    result._count = search.count
    memcpy(result._opponent, opponent, POINTS)
    result._opponent_side = <object>PyTuple_GET_ITEM(position, 1)
    result._mover_pins = mover_pins
    result.dice_used = search.plays[0].count
    return result


# --- one given play -------------------------------------------------------------------------------

ctypedef struct Check:
    int rules
    int high
    int low
    int moves[4][2]
    int move_count
    CStep found[4]
    bint done
    uint32_t mover_pins  # Plakoto: as in ``Search``
    uint32_t pinned
    uint32_t found_pinned  # Plakoto: the opponent's pins after the steps found


cdef bint _allowed(Check* check, count_t* player, count_t* opponent, int start, int die, const CStep* taken, int count, CStep* step) noexcept:
    # ``step`` of each variant: whether the step of ``die`` from ``start`` is allowed now.
    cdef int end, left_head, index
    cdef int rules = check.rules
    if rules == BACKGAMMON_RULES:
        if start != BAR and player[BAR]:
            return False
    elif start == BAR:
        return False
    if not player[start]:
        return False
    if rules == LONG_NARDI_RULES and start == HEAD:
        left_head = 0
        for index in range(count):
            if taken[index].start == HEAD:
                left_head += 1
        if left_head >= (2 if player[HEAD] + left_head == 15 and check.high == check.low and check.high in (3, 4, 6) else 1):
            return False
    if rules == PLAKOTO_RULES:
        if count and _plakoto_over(player, opponent, check.mover_pins, check.pinned):
            return False  # the game ended with the last step
        if check.mover_pins >> start & 1:
            return False
    if rules == FEVGA_RULES and not _fevga_may_move(player, start):
        return False
    end = start - die
    step.start = start
    step.die = die
    step.hit = 0
    if end <= 0:
        step.end = OFF
        if rules == PLAKOTO_RULES and check.mover_pins:
            return False
        return _bear_off_start(player, die, 6) == start
    step.end = end
    if rules == BACKGAMMON_RULES:
        if opponent[25 - end] >= 2:
            return False
        step.hit = opponent[25 - end] == 1
        return True
    if rules == PLAKOTO_RULES:
        return _plakoto_may_land(opponent, check.mover_pins, end)
    return opponent[_opponent_point(rules, end)] == 0


cdef void _attempt(Check* check, int index, count_t* player, count_t* opponent, int* left, int left_count, CStep* taken) noexcept:
    # ``checking.follow`` with one die a move: the first way found, trying the highest die first.
    cdef int start, end, die, choice, tried, rest
    cdef int remaining[4]
    cdef CStep step
    cdef uint32_t pinned = check.pinned
    if check.done:
        return
    if index == check.move_count:
        memcpy(check.found, taken, index * sizeof(CStep))
        check.found_pinned = pinned
        check.done = True
        return
    start = check.moves[index][0]
    end = check.moves[index][1]
    tried = 0
    for die in range(6, 0, -1):
        for choice in range(left_count):
            if left[choice] == die:
                break
        else:
            continue
        if not (die == start - end or (end == OFF and die > start - end)):
            continue
        if not _allowed(check, player, opponent, start, die, taken, index, &step):
            continue
        rest = 0
        for tried in range(left_count):
            if tried != choice:
                remaining[rest] = left[tried]
                rest += 1
        taken[index] = step
        player[step.start] -= 1
        player[step.end] += 1
        if step.hit:
            opponent[25 - step.end] -= 1
            opponent[BAR] += 1
        if check.rules == PLAKOTO_RULES:
            check.pinned = _pinned_after(player, opponent, pinned, step)
        _attempt(check, index + 1, player, opponent, remaining, rest, taken)
        check.pinned = pinned
        player[step.start] += 1
        player[step.end] -= 1
        if step.hit:
            opponent[25 - step.end] += 1
            opponent[BAR] -= 1
        if check.done:
            return


cdef bint _follow(Check* check, count_t* player, count_t* opponent) noexcept:
    cdef int left[4]
    cdef int left_count
    cdef CStep taken[4]
    if check.high == check.low:
        left[0] = left[1] = left[2] = left[3] = check.high
        left_count = 4
    else:
        left[0] = check.high
        left[1] = check.low
        left_count = 2
    check.done = False
    _attempt(check, 0, player, opponent, left, left_count, taken)
    return check.done


cdef inline bint _move_above(const int* a, const int* b) noexcept:
    return a[0] > b[0] or (a[0] == b[0] and a[1] > b[1])


cdef bint _next_order(int* order, int count) noexcept:
    # The next permutation of ``order`` in lexicographic order, as ``itertools.permutations`` goes.
    cdef int index = count - 2
    cdef int other, swap
    while index >= 0 and order[index] >= order[index + 1]:
        index -= 1
    if index < 0:
        return False
    other = count - 1
    while order[other] <= order[index]:
        other -= 1
    order[index], order[other] = order[other], order[index]
    other = count - 1
    index += 1
    while index < other:
        order[index], order[other] = order[other], order[index]
        index += 1
        other -= 1
    return True


cdef bint _follow_some_order(Check* check, count_t* player, count_t* opponent, int given[4][2]) noexcept:
    # ``checking.check_play``'s orders: the moves as given, then from the highest start down
    # (``in_play_order``), then every other order (``other_orders``); each order once.
    cdef int tried[26][4][2]
    cdef int tried_count = 0
    cdef int order[4]
    cdef int count = check.move_count
    cdef int index, other, known
    cdef int kind
    cdef bint seen
    for index in range(count):
        order[index] = index
    for kind in range(26):
        if kind == 0:
            memcpy(check.moves, given, sizeof(check.moves))
        elif kind == 1:
            memcpy(check.moves, given, sizeof(check.moves))
            for index in range(1, count):  # a stable sort, from the highest start down
                other = index
                while other > 0 and _move_above(check.moves[other], check.moves[other - 1]):
                    check.moves[other][0], check.moves[other - 1][0] = check.moves[other - 1][0], check.moves[other][0]
                    check.moves[other][1], check.moves[other - 1][1] = check.moves[other - 1][1], check.moves[other][1]
                    other -= 1
        else:
            if kind > 2 and not _next_order(order, count):
                return False
            for index in range(count):
                check.moves[index][0] = given[order[index]][0]
                check.moves[index][1] = given[order[index]][1]
        seen = False
        for known in range(tried_count):
            if memcmp(tried[known], check.moves, count * 2 * sizeof(int)) == 0:
                seen = True
                break
        if seen:
            continue
        memcpy(tried[tried_count], check.moves, sizeof(check.moves))
        tried_count += 1
        if _follow(check, player, opponent):
            return True
    return False


cdef bint _duty_lapses(Check* check, const count_t* player, const count_t* opponent, const int* prime) except -1:
    # Fevga's unblocking duty lapses when no legal play opens the prime (``Fevga.refusal_of_duty``):
    # then the legal plays, which open it whenever one can, do not.
    cdef Search search
    cdef bint lapses
    _start_search(&search, check.rules, player, opponent, 0, 0, check.high, check.low)
    _search_plays(&search)
    if search.failed:
        free(search.plays)
        raise MemoryError()
    lapses = not _opens(search.plays[0].player, prime)
    free(search.plays)
    return lapses


def check_play(int rules, position, int high, int low, moves):
    """The legal play of ``moves`` (each a start and an end, one die a move) when it uses every
    die and the rules allow each step and the whole play at once; ``None`` for anything else (a
    play of fewer dice, or one the rules refuse), which the pure ``checking.check_play`` decides.

    ``position`` must be valid with its game not over; ``moves`` checked as ``check_move`` does.
    """
    cdef Check check
    cdef count_t player[POINTS]
    cdef count_t opponent[POINTS]
    cdef count_t after[POINTS]
    cdef count_t opponent_after[POINTS]
    cdef int given[4][2]
    cdef int prime[6]
    cdef int index
    check.rules = rules
    check.high = high
    check.low = low
    check.move_count = len(moves)
    if check.move_count != (4 if high == low else 2):
        return None
    for index in range(check.move_count):
        given[index][0] = moves[index][0]
        given[index][1] = moves[index][1]
    _read_position(position, player, opponent)
    _read_pins(rules, position, &check.mover_pins, &check.pinned)
    if not _follow_some_order(&check, player, opponent, given):
        return None
    memcpy(after, player, POINTS)
    memcpy(opponent_after, opponent, POINTS)
    cdef bint hit = False
    for index in range(check.move_count):
        after[check.found[index].start] -= 1
        after[check.found[index].end] += 1
        if check.found[index].hit:
            hit = True
            opponent_after[25 - check.found[index].end] -= 1
            opponent_after[BAR] += 1
    if rules == LONG_NARDI_RULES and _six_in_a_row(after, opponent_after):
        return None
    if rules == FEVGA_RULES:
        if _holds_start_quarter(after):
            return None
        if _prime_to_open(player, opponent, prime) and not _opens(after, prime):
            if not _duty_lapses(&check, player, opponent, prime):
                return None
    _bind()
    opponent_side = _side_tuple(opponent_after) if hit else <object>PyTuple_GET_ITEM(position, 1)
    result = _position_object(_side_tuple(after), opponent_side, check.mover_pins, check.found_pinned)
    return _pair(_Play, _steps_tuple(check.found, check.move_count), result)


# --- whether a position can occur -------------------------------------------------------------------

def valid(int rules, position, bint in_play=False):
    """Whether ``position`` (with 15 checkers a side, as a Position always has) can occur under
    ``rules``: ``Variant.validate`` passes; with ``in_play``, also that its game is not over:
    ``Variant.check_position`` passes. ``False`` sends the caller to that check, which says what
    is wrong."""
    cdef count_t player[POINTS]
    cdef count_t opponent[POINTS]
    cdef int point, finished
    _read_position(position, player, opponent)
    if rules == PLAKOTO_RULES and position.pins:
        return False  # the pins are the pure check's to judge
    finished = (player[OFF] == 15) + (opponent[OFF] == 15)
    if finished == 2 or (in_play and finished):
        return False
    if rules != BACKGAMMON_RULES and (player[BAR] or opponent[BAR]):
        return False
    for point in range(1, 25):
        if player[point] and opponent[_opponent_point(rules, point)]:
            return False
    return True


# --- a .mat record's games, read and checked in one pass -------------------------------------------
#
# ``matfile.reading.read_record`` and ``matfile.checking.check_record`` for the records whose every
# line, play and action is plainly clean: backgammon from the standard start, a roll a move (the
# opening throw played as the first move), the cube, drops and results in either column. The pure
# reader and checker stay the reference: anything else met here (another dialect, a problem, a
# resignation that the result line does not plainly say) stops this pass with ``_Unsure``, and the
# caller reads the record with them, which say what is wrong, if anything is. One problem is met
# here: a move or play not recorded (``???``), where the checker stops a game with its reader's
# words; ``check_mat_game`` says where, so that the plays before it are not replayed in Python.
# The record is read from its UTF-8 bytes (:class:`MatText`), split into lines once: every line this
# pass reads as written is printable ASCII, where a byte is a character; a character of any other
# script only stands in a score line's names, and the right-hand name's column is counted in
# characters, as the reader counts it.

class _Unsure(Exception):
    """Met something this pass does not answer for: the pure reader and checker decide."""


cdef enum:
    ENTRY_ROLL = 0
    ENTRY_DOUBLE = 1
    ENTRY_TAKE = 2
    ENTRY_DROP = 3
    ENTRY_WIN = 4
    ENTRY_LOSS = 5
    ENTRY_OTHER = 6  # beavers, raccoons, resignations: the pure reader's
    ENTRY_UNREADABLE = 7  # a move or play not recorded ("???"): the game's checking stops there
    MOST_ENTRIES = 1024  # a game's entries read at once here; a longer game is the pure reader's

cdef enum:
    # The problems this pass names (``_PROBLEMS``: how it names them to Python, which words them).
    PROBLEM_NONE = 0
    PROBLEM_UNREADABLE = 1  # the reader's: a move or play not recorded, a board dump
    PROBLEM_CUBE = 2  # a double written with another value than the cube turns to
    PROBLEM_RESIGNATION = 3  # a result worth more than a resignation can be with the cube
    PROBLEM_NO_LOSER = 4  # a result at the line's start that nothing says whose it is
    PROBLEM_MATCH_NOT_WON = 5  # "and the match" short of the match length
    PROBLEM_NOT_YOUR_TURN = 6  # a roll written for the side not on turn
    # A play this pass does not find among the legal plays: illegal, or written as only the pure
    # reader reads it (the engine's play reading tells which, and says why).
    PROBLEM_PLAY = 7

_PROBLEMS = (
    None, "unreadable", "cube", "resignation", "no loser", "match not won", "not your turn", "play"
)

cdef enum:
    PHASE_OPENING = 0
    PHASE_ROLLING = 1
    PHASE_PLAYING = 2
    PHASE_DOUBLED = 3
    PHASE_OVER = 4  # the game is over

cdef enum:
    # reading.py's column rules: a lone entry this far into a line is in the right column, and one
    # this far whatever the names; a result before LEFT_COLUMN_AT_LEAST on a line with no move
    # number stands in neither column.
    RIGHT_COLUMN_AT_LEAST = 14
    RIGHT_COLUMN_AT_MOST = 26
    LEFT_COLUMN_AT_LEAST = 4


ctypedef struct Written:
    # One column's entry, as ``reading.Entry`` holds it.
    int kind
    int side
    int first  # a roll's dice as written
    int second
    int value  # a double's cube value (0: not written), or a result's points
    bint wins_match
    bint in_column  # False: a result at the line's start with no move number, in neither column
    int line  # its index in the lines
    int move  # the move number it stands under (the last one written in its game), -1: none yet
    int text_start  # where it starts in its line (its dice or its word) and where that ends
    int text_end
    int play_start  # the text after that, to the next entry (a roll's play): its start and end
    int play_end


ctypedef struct Table:
    # The match as ``game.MatchState`` holds it, for the game in play.
    count_t player[POINTS]  # the side on turn's checkers
    count_t opponent[POINTS]
    int turn
    int phase
    int high
    int low
    int cube
    int owner  # -1: centred
    bint crawford
    bint crawford_played
    int number  # the game in play
    int score[2]
    int start_score[2]  # at the start of the game in play
    int next_score[2]  # the next game's score line; -1: none
    bint next_known  # whether ``next_score`` is known: read, or the game is the record's last
    int winner  # of the game in play, once it is over
    int points
    bint match_over
    # The match's rules, as far as this pass plays them.
    int length
    bint crawford_rule
    bint jacoby
    bint uses_cube
    int highest_cube
    # The game's result lines, as ``checking._GameChecker`` compares them.
    int results
    int first_winner  # -1: none read yet
    int first_points
    int placed_winner  # the winner the game's first result in a column names; -1: none
    int placed_points  # ... and its points
    int unplayed  # a roll read without its play (its index in the game's entries), else -1
    # The problem the game's checking stopped at (PROBLEM_NONE: none), as ``_problem`` sets it.
    int problem
    int problem_entry  # its entry's index in the game's entries
    int problem_side  # the side the problem is put to, -1: none
    int problem_values[2]  # what its words need: the cube's new value; the most a resignation is worth
                           # and the cube; the match's winner and its score


ctypedef struct Line:
    # One line of a record's bytes (UTF-8), without its line break.
    const unsigned char* chars
    int length


cdef class MatText:
    """A .mat record's bytes, UTF-8, split once into the lines ``str.splitlines`` makes of the text
    they decode to (after any byte-order marks, as the reader strips them): what
    :func:`check_mat_games` and :func:`check_mat_game` read, a byte at a time, with no Python
    string made of any line. ``len()`` is the number of lines."""

    cdef bytes data
    cdef int* starts  # each line's first byte, and after the last line the end of the text
    cdef int* ends
    cdef int count

    def __cinit__(self, bytes data not None):
        cdef const unsigned char* chars = <const unsigned char*>PyBytes_AS_STRING(data)
        cdef Py_ssize_t size = len(data)
        cdef Py_ssize_t index = 0, start, room = 64
        cdef int width
        if size > 0x7FFFFFFF:
            raise ValueError("a record of 2 GB or more")
        self.data = data
        self.starts = <int*>malloc(room * sizeof(int))
        self.ends = <int*>malloc(room * sizeof(int))
        if self.starts == NULL or self.ends == NULL:
            raise MemoryError()
        while index + 3 <= size and chars[index] == 0xEF and chars[index + 1] == 0xBB and chars[index + 2] == 0xBF:
            index += 3
        start = index
        while index < size:
            width = _line_break(chars, index, size)
            if width == 0:
                index += 1
                continue
            self._add(start, index, &room)
            index += width
            start = index
        if start < size:
            self._add(start, size, &room)

    cdef int _add(self, Py_ssize_t start, Py_ssize_t end, Py_ssize_t* room) except -1:
        cdef int* grown
        if self.count == room[0]:
            room[0] *= 2
            grown = <int*>realloc(self.starts, room[0] * sizeof(int))
            if grown == NULL:
                raise MemoryError()
            self.starts = grown
            grown = <int*>realloc(self.ends, room[0] * sizeof(int))
            if grown == NULL:
                raise MemoryError()
            self.ends = grown
        self.starts[self.count] = <int>start
        self.ends[self.count] = <int>end
        self.count += 1
        return 0

    def __dealloc__(self):
        free(self.starts)
        free(self.ends)

    def __len__(self):
        return self.count

    cdef inline Line line(self, int index) noexcept:
        cdef Line line
        line.chars = <const unsigned char*>PyBytes_AS_STRING(self.data) + self.starts[index]
        line.length = self.ends[index] - self.starts[index]
        return line


cdef inline int _line_break(const unsigned char* chars, Py_ssize_t index, Py_ssize_t size) noexcept nogil:
    # The bytes of the line break ``str.splitlines`` sees at ``index`` (0: none): \r\n, \r, \n,
    # \v, \f, \x1c-\x1e, and in UTF-8 U+0085, U+2028 and U+2029.
    cdef unsigned char char = chars[index]
    if char == 13:
        return 2 if index + 1 < size and chars[index + 1] == 10 else 1
    if char == 10 or char == 11 or char == 12 or 28 <= char <= 30:
        return 1
    if char == 0xC2 and index + 1 < size and chars[index + 1] == 0x85:
        return 2
    if (
        char == 0xE2 and index + 2 < size and chars[index + 1] == 0x80
        and (chars[index + 2] == 0xA8 or chars[index + 2] == 0xA9)
    ):
        return 3
    return 0


cdef inline bint _space(unsigned char char) noexcept nogil:
    # An ASCII character ``str.isspace`` counts (within a line: a space, a tab or \x1f). Other
    # characters' bytes are never taken for spaces here: where one could be a space that the
    # reader's ``\s`` skips, this pass is unsure.
    return char == 32 or 9 <= char <= 13 or 28 <= char <= 31


cdef inline bint _word_char(unsigned char char) noexcept nogil:
    return ('a' <= char <= 'z') or ('A' <= char <= 'Z') or ('0' <= char <= '9') or char == '_'


cdef inline unsigned char _lower(unsigned char char) noexcept nogil:
    return char + 32 if 'A' <= char <= 'Z' else char


cdef bint _plain(Line line) noexcept:
    # Whether the line is printable ASCII (and tabs), which this pass reads as the regular
    # expressions of reading.py do; other characters (Unicode spaces and digits) are theirs to read.
    cdef int index
    cdef unsigned char char
    for index in range(line.length):
        char = line.chars[index]
        if char > 126 or (char < 32 and char != '\t'):
            return False
    return True


cdef bint _blank(Line line) noexcept:
    # Whether the line is ASCII white space alone (a line of other spaces is not blank here: the
    # pass is then unsure where it matters).
    cdef int index
    for index in range(line.length):
        if not _space(line.chars[index]):
            return False
    return True


cdef bint _holds(Line line, const char* words, bint any_case) noexcept:
    # Whether ``words`` stand in the line: as written, or (``any_case``, ``words`` in lower case)
    # in any case.
    cdef int index, offset
    cdef unsigned char char
    for index in range(line.length):
        offset = 0
        while words[offset] and index + offset < line.length:
            char = line.chars[index + offset]
            if (_lower(char) if any_case else char) != words[offset]:
                break
            offset += 1
        if not words[offset]:
            return True
    return False


cdef bint _is_words(Line line, int start, int end, const char* words, bint spaces_dropped) noexcept:
    # Whether ``line[start:end]`` is ``words`` (lower case), in any case; with ``spaces_dropped``
    # once its spaces are taken out.
    cdef int index, offset = 0
    for index in range(start, end):
        if spaces_dropped and line.chars[index] == ' ':
            continue
        if not words[offset] or _lower(line.chars[index]) != words[offset]:
            return False
        offset += 1
    return not words[offset]


cdef int _skip_spaces(Line line, int index) noexcept:
    while index < line.length and (line.chars[index] == ' ' or line.chars[index] == '\t'):
        index += 1
    return index


cdef bint _word_at(Line line, int index, const char* word) noexcept:
    # ``word`` (lower case) at ``index``, in any case.
    cdef int offset = 0
    while word[offset]:
        if index + offset >= line.length or _lower(line.chars[index + offset]) != word[offset]:
            return False
        offset += 1
    return True


cdef int _number_at(Line line, int* index) except -2:
    # The number of one to nine digits at ``index[0]`` (moved past it); -1 where there is none.
    cdef int value = 0
    cdef int start = index[0]
    while index[0] < line.length and '0' <= line.chars[index[0]] <= '9':
        value = value * 10 + (<int>line.chars[index[0]] - 48)
        index[0] += 1
        if index[0] - start > 9:
            raise _Unsure()
    if index[0] < line.length and line.chars[index[0]] > 127:
        raise _Unsure()  # perhaps a digit of another script, which ``\d`` reads
    return value if index[0] > start else -1


cdef int _game_number(Line line) except -2:
    # ``reading._GAME``: the game number of a " Game n" line, -1 for any other line.
    cdef int index = 0
    cdef int number
    while index < line.length and (_space(line.chars[index]) or line.chars[index] > 127):
        index += 1  # (other characters' spaces too: a line that is not plain is unsure below)
    if not _word_at(line, index, "game"):
        return -1
    if not _plain(line):
        raise _Unsure()
    index += 4
    if index >= line.length or not (line.chars[index] == ' ' or line.chars[index] == '\t'):
        return -1
    index = _skip_spaces(line, index)
    number = _number_at(line, &index)
    index = _skip_spaces(line, index)
    return number if number >= 0 and index == line.length else -1


cdef int _score_line(Line line, int* score, int* right_from) except -1:
    # ``reading._SCORE`` (names of any characters, no colon): the score it writes, and where its
    # right-hand name starts; anything else is unsure.
    cdef int index = 0
    cdef int name1
    cdef int side
    for side in range(2):
        while index < line.length and line.chars[index] != ':':
            index += 1
        if index == line.length:
            raise _Unsure()
        index += 1
        while index < line.length and _space(line.chars[index]):
            index += 1
        score[side] = _number_at(line, &index)
        if score[side] < 0:
            raise _Unsure()
        while index < line.length and _space(line.chars[index]):
            index += 1
        if index < line.length and line.chars[index] > 127:
            raise _Unsure()  # perhaps a space of another script, which ``\s`` skips
        if side == 0:
            name1 = _characters(line, index)
    if index != line.length:
        raise _Unsure()
    right_from[0] = min(max(RIGHT_COLUMN_AT_LEAST, name1 - 6), RIGHT_COLUMN_AT_MOST)
    return 0


cdef inline int _characters(Line line, int end) noexcept:
    # The characters of ``line[:end]`` (UTF-8): its bytes but those that continue a character.
    cdef int index, count = 0
    for index in range(end):
        if line.chars[index] & 0xC0 != 0x80:
            count += 1
    return count


cdef int _entry_at(Line line, int index, int* end) except -2:
    # ``reading._ENTRY`` at ``index``: the kind of entry that starts there (``end[0]`` after it),
    # or -1.
    cdef unsigned char before = line.chars[index - 1] if index > 0 else ' '
    cdef int word, length
    if (
        index + 2 < line.length and '1' <= line.chars[index] <= '6' and '1' <= line.chars[index + 1] <= '6'
        and line.chars[index + 2] == ':' and not _word_char(before) and before != '/'
    ):
        end[0] = index + 3
        return ENTRY_ROLL
    if line.chars[index] == '?' and index + 1 < line.length and line.chars[index + 1] == '?':
        end[0] = index + 2
        while end[0] < line.length and line.chars[end[0]] == '?':
            end[0] += 1
        return ENTRY_UNREADABLE  # a move or play not recorded
    if _word_char(before) or not ('a' <= _lower(line.chars[index]) <= 'z'):
        return -1
    if index >= 4 and _word_at(line, index - 4, "and "):
        return -1
    for word in range(ENTRY_WORD_COUNT):
        length = strlen(_ENTRY_WORDS[word])
        if _word_at(line, index, _ENTRY_WORDS[word]) and (
            index + length == line.length or not _word_char(line.chars[index + length])
        ):
            end[0] = index + length
            return _ENTRY_KINDS[word]
    return -1


cdef enum:
    ENTRY_WORD_COUNT = 16

cdef const char* _ENTRY_WORDS[ENTRY_WORD_COUNT]
cdef int _ENTRY_KINDS[ENTRY_WORD_COUNT]
_ENTRY_WORDS[:] = [
    "doubles", "double", "takes", "take", "drops", "drop", "wins", "win",
    "beavers", "beaver", "raccoons", "raccoon", "losses", "loses", "resigns", "resign",
]
_ENTRY_KINDS[:] = [
    ENTRY_DOUBLE, ENTRY_DOUBLE, ENTRY_TAKE, ENTRY_TAKE, ENTRY_DROP, ENTRY_DROP, ENTRY_WIN, ENTRY_WIN,
    ENTRY_OTHER, ENTRY_OTHER, ENTRY_OTHER, ENTRY_OTHER, ENTRY_LOSS, ENTRY_LOSS, ENTRY_OTHER, ENTRY_OTHER,
]


cdef int _trimmed_end(Line line, int start, int end) noexcept:
    while end > start and (line.chars[end - 1] == ' ' or line.chars[end - 1] == '\t'):
        end -= 1
    return end


cdef int _read_move_line(
    Line line, int line_index, int right_from, Written* entries, int* count, int* move
) except -1:
    # ``reading._LineReader.read`` for a plain line: its entries, each in its column, under the move
    # number ``move[0]`` (the last one written before, -1: none), which a number on the line sets.
    cdef int index = _skip_spaces(line, 0)
    cdef int offset = 0
    cdef int number
    cdef int starts[64]
    cdef int ends[64]
    cdef int kinds[64]
    cdef int found = 0
    cdef int end, kind, position, stop, rest
    cdef int dump_end = -1
    cdef int dump = -1
    cdef bint result
    cdef Written* entry
    number = _number_at(line, &index)
    if number >= 0 and index < line.length and line.chars[index] == ')':
        offset = index + 1
        move[0] = number
    else:
        number = -1
    if _holds(line, "llegal", True):
        dump = _board_dump(line, &dump_end)
    index = offset
    while index < line.length:
        if index == dump:
            # ``reading._BOARD_DUMP``, read over: the play of the roll it follows is not recorded.
            if not (found and kinds[found - 1] == ENTRY_ROLL and _skip_spaces(line, ends[found - 1]) == index):
                raise _Unsure()
            kinds[found - 1] = ENTRY_UNREADABLE
            index = dump_end
            continue
        kind = _entry_at(line, index, &end)
        if kind < 0:
            index += 1
            continue
        if kind == ENTRY_OTHER or found == 64:
            raise _Unsure()
        if kind == ENTRY_UNREADABLE and found and kinds[found - 1] == ENTRY_ROLL and _skip_spaces(line, ends[found - 1]) == index:
            kinds[found - 1] = ENTRY_UNREADABLE  # "42: ???": the roll's play is not recorded
            index = end
            continue
        starts[found], ends[found], kinds[found] = index, end, kind
        found += 1
        index = end
    if _skip_spaces(line, offset) < (starts[0] if found else line.length):
        raise _Unsure()  # text that is no entry
    for position in range(found):
        if count[0] == MOST_ENTRIES:
            raise _Unsure()
        entry = &entries[count[0]]
        count[0] += 1
        kind = kinds[position]
        result = kind == ENTRY_WIN or kind == ENTRY_LOSS
        entry.in_column = not (number < 0 and starts[position] < LEFT_COLUMN_AT_LEAST and result)
        entry.kind = kind
        entry.side = starts[position] >= right_from or (position > 0 and not result)
        entry.line = line_index
        entry.move = move[0]
        entry.value = -1  # (a double's value: not written)
        entry.wins_match = False
        stop = starts[position + 1] if position + 1 < found else line.length
        rest = _skip_spaces(line, ends[position])
        stop = _trimmed_end(line, rest, stop)
        entry.text_start, entry.text_end = starts[position], ends[position]
        entry.play_start, entry.play_end = rest, stop
        if kind == ENTRY_ROLL:
            entry.first = <int>line.chars[starts[position]] - 48
            entry.second = <int>line.chars[starts[position] + 1] - 48
        elif kind == ENTRY_DOUBLE:
            if rest < stop:
                if not (line.chars[rest] == '=' and rest + 1 < stop and line.chars[rest + 1] == '>'):
                    raise _Unsure()
                rest = _skip_spaces(line, rest + 2)
                entry.value = _number_at(line, &rest)
                if entry.value < 0 or rest != stop:
                    raise _Unsure()
        elif result:
            entry.value = _number_at(line, &rest)
            if entry.value < 0 or rest == stop or not (line.chars[rest] == ' ' or line.chars[rest] == '\t'):
                raise _Unsure()
            rest = _skip_spaces(line, rest)
            if not _word_at(line, rest, "point"):
                raise _Unsure()
            rest += 5
            if rest < stop and _lower(line.chars[rest]) == 's':
                rest += 1
            if rest < stop and _word_char(line.chars[rest]):
                raise _Unsure()
            rest = _skip_spaces(line, rest)
            if rest < stop:
                if not (
                    _is_words(line, rest, stop, "and the match", False)
                    or _is_words(line, rest, stop, "and wins the match", False)
                    or _is_words(line, rest, stop, "and match", False)
                ):
                    raise _Unsure()
                entry.wins_match = True
        elif kind == ENTRY_UNREADABLE:
            pass  # whatever follows it is the reader's problem's words
        elif rest < stop:
            raise _Unsure()  # words after a take or a drop
    return 0


cdef int _board_dump(Line line, int* end) except -2:
    # Where a server's board dump (``reading._BOARD_DUMP``: "Illegal play (...)", in any case)
    # starts on the line, and ``end[0]`` after it; unsure unless the line holds this one dump and
    # no other "illegal".
    cdef int start = -1, index, after
    for index in range(1, line.length):
        if _word_at(line, index, "llegal"):
            if start >= 0 or not _word_at(line, index - 1, "illegal play"):
                raise _Unsure()
            start = index - 1
    if start < 0:
        raise _Unsure()  # "llegal" first on the line, with no "i" before it
    after = start + 12
    while after < line.length and (line.chars[after] == ' ' or line.chars[after] == '\t'):
        after += 1
    if after == line.length or line.chars[after] != '(':
        raise _Unsure()
    while after < line.length and line.chars[after] != ')':
        after += 1
    end[0] = after + 1 if after < line.length else after
    return start


ctypedef struct WrittenPlay:
    # A play's text read as ``notation.parse_moves`` reads it: each checker's start and end, and
    # the points where a hit is marked (the mover's numbering).
    int moves[4][2]
    int count
    bint one_die_each  # every move names only its start and end
    uint32_t marked
    uint32_t named  # the points the text names a checker landing on


cdef int _point_at(Line line, int* index, int end) except -2:
    # ``notation._POINT`` at ``index[0]`` (moved past it): 0-25, the bar 25, off 0.
    cdef int point = 0
    cdef int digits = 0
    if index[0] + 3 <= end and _word_at(line, index[0], "bar"):
        index[0] += 3
        return BAR
    if index[0] + 3 <= end and _word_at(line, index[0], "off"):
        index[0] += 3
        return OFF
    if index[0] < end and _lower(line.chars[index[0]]) == 'b':
        index[0] += 1
        return BAR
    if index[0] < end and _lower(line.chars[index[0]]) == 'o':
        index[0] += 1
        return OFF
    while index[0] < end and '0' <= line.chars[index[0]] <= '9' and digits < 3:
        point = point * 10 + (<int>line.chars[index[0]] - 48)
        index[0] += 1
        digits += 1
    if digits == 0 or digits > 2 or point > 25:
        raise _Unsure()
    return point


cdef int _read_written_play(Line line, int start, int end, WrittenPlay* play) except -1:
    # The moves of a play's text; any text ``notation.parse_moves`` would refuse, or might read
    # otherwise, is unsure.
    cdef int index = start
    cdef int part_end, path_end, points, point, last, first, repeat, copy
    play.count = 0
    play.one_die_each = True
    play.marked = play.named = 0
    while True:
        while index < end and (line.chars[index] == ' ' or line.chars[index] == '\t' or line.chars[index] == ','):
            index += 1
        if index == end:
            return 0
        part_end = index
        while part_end < end and not (line.chars[part_end] == ' ' or line.chars[part_end] == '\t' or line.chars[part_end] == ','):
            part_end += 1
        path_end = part_end
        repeat = 1
        if line.chars[part_end - 1] == ')':  # "13/7(2)"
            path_end = part_end - 3
            if path_end <= index or line.chars[path_end] != '(' or not ('1' <= line.chars[part_end - 2] <= '4'):
                raise _Unsure()
            repeat = (<int>line.chars[part_end - 2] - 48)
        points = 0
        first = last = -1
        while True:
            point = _point_at(line, &index, path_end)
            if index < path_end and line.chars[index] == '*':
                if points == 0:
                    raise _Unsure()  # a hit marked where the checker starts
                index += 1
                play.marked |= <uint32_t>1 << point
            if points == 0:
                first = point
            elif point == BAR or point >= last or last == OFF:
                raise _Unsure()
            else:
                play.named |= <uint32_t>1 << point
            last = point
            points += 1
            if index == path_end:
                break
            if line.chars[index] != '/':
                raise _Unsure()
            index += 1
        if points < 2:
            raise _Unsure()
        if points > 2:
            play.one_die_each = False
        for copy in range(repeat):
            if play.count == 4:
                raise _Unsure()
            play.moves[play.count][0] = first
            play.moves[play.count][1] = last
            play.count += 1
        index = part_end


cdef inline void _take_hits(count_t* opponent, uint32_t hits) noexcept:
    cdef int point
    for point in range(1, 25):
        if hits >> point & 1:
            opponent[25 - point] -= 1
            opponent[BAR] += 1


cdef int _legal_plays(Table* table, Search* search) except -1:
    _start_search(search, BACKGAMMON_RULES, table.player, table.opponent, 0, 0, table.high, table.low)
    _search_plays(search)
    if search.failed:
        free(search.plays)
        raise MemoryError()
    return 0


cdef bint _no_move_written(Line line, int start, int end) noexcept:
    # A roll's play written as words saying no move was made ("Cannot Move", "No play", ...).
    return (
        _is_words(line, start, end, "cannotmove", True) or _is_words(line, start, end, "cantmove", True)
        or _is_words(line, start, end, "nomove", True) or _is_words(line, start, end, "noplay", True)
    )


cdef int _find_play(Table* table, Line line, const Written* entry, count_t* after, uint32_t* hits) except -1:
    # ``game.read_play`` for a clean play: the mover's checkers after it and the points it hits.
    cdef WrittenPlay written
    cdef Check check
    cdef Search search
    cdef count_t target[POINTS]
    cdef int index, found
    if _no_move_written(line, entry.play_start, entry.play_end):
        written.count = 0
        written.marked = written.named = 0
        written.one_die_each = False
    else:
        _read_written_play(line, entry.play_start, entry.play_end, &written)
    if written.one_die_each and written.count == (4 if table.high == table.low else 2):
        # ``checking.compiled_check``: the commonest play, one die a move, at once.
        check.rules = BACKGAMMON_RULES
        check.high, check.low = table.high, table.low
        check.move_count = written.count
        check.mover_pins = check.pinned = 0
        if _follow_some_order(&check, table.player, table.opponent, written.moves):
            memcpy(after, table.player, POINTS)
            hits[0] = 0
            for index in range(check.move_count):
                after[check.found[index].start] -= 1
                after[check.found[index].end] += 1
                hits[0] = _with_hit(hits[0], check.found[index])
            return 0
    # Else the legal play that leaves the checkers where the text puts them, as
    # ``notation._the_way_meant`` picks it among those: hitting nowhere the text does not name if
    # one does, and then the most of the points it names; one that ties with another, or misses
    # a hit the text marks, is unsure.
    memcpy(target, table.player, POINTS)
    for index in range(written.count):
        target[written.moves[index][0]] -= 1
        target[written.moves[index][1]] += 1
    _legal_plays(table, &search)
    found = _play_meant(&search, target, written.named)
    if found < 0 or written.marked & ~search.plays[found].hits:
        free(search.plays)
        raise _Unsure()
    memcpy(after, search.plays[found].player, POINTS)
    hits[0] = search.plays[found].hits
    free(search.plays)
    return 0


cdef int _play_meant(Search* search, const count_t* target, uint32_t named) noexcept:
    # The index of the play meant among the legal plays with the mover's checkers at ``target``,
    # or -1 where none is, or two tie.
    cdef int index, count, best = -1, best_count = -1
    cdef bint tied = False
    cdef bint clean_only = False
    cdef uint32_t hits
    for index in range(search.count):
        if memcmp(search.plays[index].player, target, POINTS) == 0 and search.plays[index].hits & ~named == 0:
            clean_only = True
    for index in range(search.count):
        hits = search.plays[index].hits
        if memcmp(search.plays[index].player, target, POINTS) != 0 or (clean_only and hits & ~named):
            continue
        count = _bits(hits & named)
        if count > best_count:
            best, best_count, tied = index, count, False
        elif count == best_count:
            tied = True
    return -1 if tied else best


cdef inline int _bits(uint32_t mask) noexcept:
    cdef int count = 0
    while mask:
        mask &= mask - 1
        count += 1
    return count


cdef void _new_game(Table* table) noexcept:
    # ``game._next_game`` with the opening throw deciding who starts.
    memset(table.player, 0, POINTS)
    table.player[24], table.player[13], table.player[8], table.player[6] = 2, 5, 3, 5
    memcpy(table.opponent, table.player, POINTS)
    table.number += 1
    table.turn = 0
    table.phase = PHASE_OPENING
    table.cube = 1
    table.owner = -1
    table.crawford = False
    if (
        table.length and table.crawford_rule and table.uses_cube and not table.crawford_played
        and max(table.score[0], table.score[1]) == table.length - 1
    ):
        table.crawford = table.crawford_played = True
    table.start_score[0], table.start_score[1] = table.score[0], table.score[1]
    table.results = 0
    table.first_winner = -1
    table.unplayed = -1
    table.problem = PROBLEM_NONE


cdef void _end_game(Table* table, int winner, int points) noexcept:
    # ``game._end_game``: scored, and the match over once a side has its length.
    table.phase = PHASE_OVER
    table.winner = winner
    table.points = points
    table.score[winner] += points
    table.match_over = table.length and table.score[winner] >= table.length


cdef void _make_play(Table* table, const count_t* after, uint32_t hits) noexcept:
    # ``game.make_play``: the game won by the play's last checker off, else the other side's turn.
    cdef count_t swap[POINTS]
    cdef int result
    memcpy(table.player, after, POINTS)
    _take_hits(table.opponent, hits)
    if table.player[OFF] == 15:
        if table.opponent[OFF]:
            result = 1
        else:
            result = 3 if any(table.opponent[point] for point in range(19, 26)) else 2
        if table.jacoby and table.owner < 0:
            result = 1
        _end_game(table, table.turn, result * table.cube)
        return
    memcpy(swap, table.player, POINTS)
    memcpy(table.player, table.opponent, POINTS)
    memcpy(table.opponent, swap, POINTS)
    table.turn = 1 - table.turn
    table.phase = PHASE_ROLLING


cdef int _play_written(Table* table, Line line, const Written* entry) except -1:
    cdef count_t after[POINTS]
    cdef uint32_t hits
    _find_play(table, line, entry, after, &hits)
    _make_play(table, after, hits)
    return 0


cdef int _play_unwritten(Table* table) except -1:
    # ``checking._GameChecker._play_unwritten``: the only legal play, else unsure.
    cdef Search search
    cdef count_t after[POINTS]
    cdef uint32_t hits
    _legal_plays(table, &search)
    if search.count != 1:
        free(search.plays)
        raise _Unsure()
    memcpy(after, search.plays[0].player, POINTS)
    hits = search.plays[0].hits
    free(search.plays)
    table.unplayed = -1
    _make_play(table, after, hits)
    return 0


cdef int _roll(Table* table, MatText text, Written* entry, int index) except -1:
    # ``checking._GameChecker._roll_and_play`` (with ``_open``: the opening throw is the first move);
    # 1 where a problem stops the game.
    cdef Search search
    cdef bint moves
    cdef bint opening = table.phase == PHASE_OPENING
    cdef int high = max(entry.first, entry.second)
    cdef int low = min(entry.first, entry.second)
    if table.phase == PHASE_OPENING:
        if high == low:
            raise _Unsure()
        table.turn = entry.side  # both sides' checkers stand alike at the start: no turning round
    elif table.phase == PHASE_ROLLING and table.turn != entry.side:
        return _problem(table, PROBLEM_NOT_YOUR_TURN, entry.side, entry.first, entry.second)
    elif table.phase != PHASE_ROLLING:
        raise _Unsure()
    table.phase = PHASE_PLAYING
    table.high, table.low = high, low
    # Nothing written, or words saying no move was made, as the reader reads them: no play yet.
    if entry.play_start == entry.play_end or _no_move_written(text.line(entry.line), entry.play_start, entry.play_end):
        _legal_plays(table, &search)
        moves = search.plays[0].count > 0
        free(search.plays)
        if moves:
            table.unplayed = index  # a resignation follows, or the play was forced
            return 0
    try:
        _play_written(table, text.line(entry.line), entry)
    except _Unsure:
        if opening:
            raise  # (the opening throw's dice are the pure checker's to word)
        return _problem(table, PROBLEM_PLAY, entry.side, entry.first, entry.second)
    return 0


cdef int _problem(Table* table, int problem, int side, int first, int second) noexcept:
    # The game's checking stops at a problem this pass names (``checking._GameChecker._fail``): 1.
    table.problem = problem
    table.problem_side = side
    table.problem_values[0], table.problem_values[1] = first, second
    return 1


cdef int _cube_action(Table* table, Written* entry) except -1:
    # ``game._doubled`` (``cube_refusal``), ``_took`` and ``_dropped``, as the checker applies them,
    # and ``_check_cube``: 1 where a problem stops the game.
    if entry.kind == ENTRY_DOUBLE:
        if (
            table.phase != PHASE_ROLLING or table.turn != entry.side or not table.uses_cube or table.crawford
            or table.owner == 1 - entry.side or table.cube * 2 > table.highest_cube
            or (table.length and table.score[entry.side] + table.cube >= table.length)
        ):
            raise _Unsure()
        table.phase = PHASE_DOUBLED
        if entry.value >= 0 and entry.value != table.cube * 2:
            return _problem(table, PROBLEM_CUBE, entry.side, table.cube * 2, 0)
        return 0
    if table.phase != PHASE_DOUBLED or table.turn == entry.side:
        raise _Unsure()
    if entry.kind == ENTRY_TAKE:
        table.cube *= 2
        table.owner = entry.side
        table.phase = PHASE_ROLLING
    else:
        _end_game(table, table.turn, table.cube)
    return 0


cdef int _most_to_lose(Table* table, int loser) noexcept:
    # ``game.most_that_can_be_lost`` in backgammon: 1 a single game, 2 a gammon, 3 a backgammon.
    cdef count_t* mine = &table.player[0]
    cdef count_t* theirs = &table.opponent[0]
    cdef int point, highest_mine = 0, highest_theirs = 0
    if loser != table.turn:
        mine, theirs = theirs, mine
    if table.jacoby and table.owner < 0:
        return 1
    if mine[OFF]:
        return 1
    for point in range(1, POINTS):
        if mine[point]:
            highest_mine = point
        if theirs[point]:
            highest_theirs = point
    if highest_mine + highest_theirs > 25:
        return 3
    return 3 if any(mine[point] for point in range(19, 26)) else 2


cdef inline int _winner(const Written* entry) noexcept:
    # The winner a result in a column names: its own side's for a win, the other's for a loss.
    return entry.side if entry.kind == ENTRY_WIN else 1 - entry.side


cdef int _scored_by_next_game(Table* table, int points) except -2:
    # ``checking._GameChecker._scored_by_next_game``: the side the next game's score line credits
    # with ``points`` alone, -1 where it credits neither so or there is no next game; unsure where
    # the next game's score line is not read here.
    cdef int side
    if not table.next_known:
        raise _Unsure()
    if table.next_score[0] < 0:
        return -1
    for side in range(2):
        if (
            table.next_score[side] - table.start_score[side] == points
            and table.next_score[1 - side] == table.start_score[1 - side]
        ):
            return side
    return -1


cdef int _result(Table* table, Written* entry) except -1:
    # ``checking._GameChecker._result``: whose it is, then a resignation while the game is on, the
    # points checked once it is over, and the match if the line says so; 1 where a problem stops
    # the game.
    cdef int winner = _winner(entry)
    cdef int level, needed, side
    if not entry.in_column:
        # ``_winner_written``: the game's result line in a column says, else the game's end, else
        # the next game's score line.
        if table.placed_winner >= 0:
            winner = table.placed_winner
        elif table.phase == PHASE_OVER:
            winner = table.winner
        else:
            winner = _scored_by_next_game(table, entry.value)
            if winner < 0:
                return _problem(table, PROBLEM_NO_LOSER, -1, 0, 0)
    side = winner if entry.kind == ENTRY_WIN else 1 - winner  # the line's, once it is known whose
    if table.first_winner < 0:
        table.first_winner, table.first_points = winner, entry.value
    elif table.first_winner != winner or table.first_points != entry.value:
        raise _Unsure()
    if table.phase != PHASE_OVER:
        if table.phase == PHASE_OPENING or table.phase == PHASE_DOUBLED:
            raise _Unsure()
        for level in range(1, 4):
            if level * table.cube >= entry.value:
                break
        else:
            # (a backgammon's 3 points a cube: the most, in backgammon as this pass plays it)
            return _problem(table, PROBLEM_RESIGNATION, side, 3 * table.cube, table.cube)
        table.unplayed = -1
        _end_game(table, winner, min(level, _most_to_lose(table, 1 - winner)) * table.cube)
    elif winner != table.winner and table.results > 1:
        raise _Unsure()
    needed = table.length - table.start_score[table.winner]
    if entry.value != table.points and not (table.length and needed <= entry.value < table.points):
        raise _Unsure()
    if entry.wins_match and not table.match_over:
        if not table.length:
            raise _Unsure()  # money play has no match to win: the pure checker's words
        return _problem(table, PROBLEM_MATCH_NOT_WON, side, table.winner, table.score[table.winner])
    return 0


cdef int _check_game(Table* table, MatText text, Written* entries, int count, bint last) except -1:
    # ``checking._GameChecker.check`` for a game's entries.
    cdef int index
    cdef Written* entry
    table.placed_winner = -1
    for index in range(count):
        if entries[index].kind == ENTRY_WIN or entries[index].kind == ENTRY_LOSS:
            table.results += 1
            if table.placed_winner < 0 and entries[index].in_column:
                table.placed_winner = _winner(&entries[index])
                table.placed_points = entries[index].value
    for index in range(count):
        entry = &entries[index]
        table.problem_entry = index
        if entry.kind == ENTRY_UNREADABLE:
            if table.phase == PHASE_OVER:
                raise _Unsure()
            # The reader's problem stops the game here, as it stops the checker.
            _problem(table, PROBLEM_UNREADABLE, entry.side, 0, 0)
            return 0
        if entry.kind == ENTRY_WIN or entry.kind == ENTRY_LOSS:
            if _result(table, entry):
                return 0
            continue
        if table.unplayed >= 0:
            _play_unwritten(table)
        if table.phase == PHASE_OVER:
            if entry.kind == ENTRY_ROLL and entry.play_start == entry.play_end:
                continue  # a roll written after the end, with nothing played
            raise _Unsure()
        if entry.kind == ENTRY_ROLL:
            if _roll(table, text, entry, index):
                return 0
        elif table.phase == PHASE_OPENING:
            raise _Unsure()
        elif _cube_action(table, entry):
            return 0
    if table.unplayed >= 0 and table.phase != PHASE_OVER and not last:
        _play_unwritten(table)
    if table.phase != PHASE_OVER and not last:
        raise _Unsure()
    return 0


cdef int _read_game(MatText text, int start, int end, int right_from, Written* entries) except -1:
    # ``reading._read_game`` for a game's lines after its score line: its entries, in order.
    cdef int count = 0
    cdef int move = -1
    cdef int index, first
    cdef Line line
    for index in range(start, end):
        line = text.line(index)
        first = 0
        while first < line.length and _space(line.chars[first]):
            first += 1
        if first == line.length:
            continue
        if line.chars[first] == ';' or line.chars[first] == '#':
            if _holds(line, "Opening", False):
                raise _Unsure()  # tavli's own opening throw: long nardi's
            continue
        if not _plain(line):
            raise _Unsure()
        _read_move_line(line, index, right_from, entries, &count, &move)
    return count


cdef int _check_one(
    Table* table, MatText text, int index, int end, bint last, bint own_score, Written* entries
) except -1:
    # ``checking._GameChecker.check`` for the game whose " Game n" line is ``index``: from the
    # match the table holds, or (``own_score``) taken up from the game's own score line, the next
    # game's score line in ``table.next_score``; the index of its score line.
    cdef int number = _game_number(text.line(index))
    cdef int right_from, count
    cdef int written[2]
    cdef int score_line = index + 1
    while score_line < end and _blank(text.line(score_line)):
        score_line += 1
    if score_line == end:
        raise _Unsure()
    _score_line(text.line(score_line), written, &right_from)
    if own_score:
        if table.length and max(written[0], written[1]) >= table.length:
            raise _Unsure()
        table.number = number - 1
        table.score[0], table.score[1] = written[0], written[1]
        table.match_over = False
    if table.match_over:
        raise _Unsure()
    _new_game(table)
    if number != table.number or written[0] != table.score[0] or written[1] != table.score[1]:
        raise _Unsure()
    count = _read_game(text, score_line + 1, end, right_from, entries)
    _check_game(table, text, entries, count, last)
    return score_line


cdef void _read_next_score(Table* table, MatText text, int index):
    # The score line of the game whose " Game n" line is ``index``, if it has one this pass reads.
    cdef int right_from
    table.next_score[0] = table.next_score[1] = -1
    table.next_known = index >= text.count  # no next game
    index += 1
    while index < text.count and _blank(text.line(index)):
        index += 1
    if index < text.count:
        try:
            _score_line(text.line(index), table.next_score, &right_from)
            table.next_known = True
        except _Unsure:
            table.next_score[0] = table.next_score[1] = -1


cdef tuple _board(Table* table):
    # The checkers of the side on turn and of the other side, as ``position.Position`` holds them.
    return (
        tuple([table.player[point] for point in range(POINTS)]),
        tuple([table.opponent[point] for point in range(POINTS)]),
    )


cdef Written* _new_entries() except NULL:
    # Room for a game's entries, as many as this pass reads.
    cdef Written* entries = <Written*>malloc(MOST_ENTRIES * sizeof(Written))
    if entries == NULL:
        raise MemoryError()
    return entries


cdef void _start_table(
    Table* table, int length, bint crawford, bint jacoby, bint uses_cube, int highest_cube
) noexcept:
    table.number = 0
    table.score[0] = table.score[1] = 0
    table.crawford_played = table.match_over = False
    table.phase = PHASE_OVER
    table.length, table.crawford_rule, table.jacoby = length, crawford, jacoby
    table.uses_cube, table.highest_cube = uses_cube, highest_cube


def check_mat_games(
    MatText text, int start, int length, bint crawford, bint jacoby, bint uses_cube, int highest_cube
):
    """The games of a .mat record of backgammon from the standard start (its ``text``, the games
    from the line index ``start`` on, after the match line) checked as ``matfile.checking.check_record``
    checks them, when every game is plainly clean or stops at a problem this pass names: how many
    games, the score after the last, the index of the first score line and the problems. ``None``
    for anything else (what this pass does not read or is unsure of), which the pure reader and
    checker decide, with :func:`check_mat_game`'s help.

    Each problem is ``(problem, game, line, score_line, move, side, text, play, values, board)``:
    which (``"unreadable"``, ``"cube"``, ``"resignation"``, ``"no loser"``, ``"match not won"``,
    ``"not your turn"``, ``"play"``), the game's number, the line index of its entry and of its
    game's score line, its move number (``None``: none written yet), the side it is put to
    (``None``: none), where the entry's dice or word stand in its line and where the text after
    them does (each ``(start, end)``), the two numbers its words need (a roll's dice as written),
    and for a play the checkers before it (the side on turn's and the other's; else ``None``). A
    ``"play"`` is one this pass does not find among the legal plays: the engine's play reading
    says why it is illegal, or finds it legal (written as this pass does not read it), and then the
    pure checker decides the record. A game after one stopped by a problem is taken up from its own
    score line.

    The rules: the match ``length`` (0 for money), the Crawford rule, Jacoby, whether the cube is
    used, and its highest value.
    """
    cdef Table table
    cdef list starts = []
    cdef list problems = []
    cdef int index, game, end, first_score_line = -1, score_line
    cdef bint own_score = False
    cdef bint crawford_reached = False  # a score line so far has a side a point from the match
    cdef Written* entries = _new_entries()
    cdef Written* entry
    _start_table(&table, length, crawford, jacoby, uses_cube, highest_cube)
    try:
        for index in range(start, text.count):
            if _game_number(text.line(index)) >= 0:
                starts.append(index)
        if not starts:
            return None
        for game in range(len(starts)):
            end = starts[game + 1] if game + 1 < len(starts) else text.count
            _read_next_score(&table, text, end)
            if own_score:
                table.crawford_played = crawford_reached
            score_line = _check_one(
                &table, text, starts[game], end, game + 1 == len(starts), own_score, entries
            )
            if first_score_line < 0:
                first_score_line = score_line
            if length and max(table.start_score[0], table.start_score[1]) >= length - 1:
                crawford_reached = True
            own_score = table.problem != PROBLEM_NONE
            if own_score:
                entry = &entries[table.problem_entry]
                problems.append((
                    _PROBLEMS[table.problem],
                    table.number,
                    entry.line,
                    score_line,
                    None if entry.move < 0 else entry.move,
                    None if table.problem_side < 0 else table.problem_side,
                    (entry.text_start, entry.text_end),
                    (entry.play_start, entry.play_end),
                    (table.problem_values[0], table.problem_values[1]),
                    _board(&table) if table.problem == PROBLEM_PLAY else None,
                ))
        if own_score and table.phase != PHASE_OVER and table.placed_winner >= 0:
            # ``checking._final_score``: the last game stopped before its end scores what its result
            # line in a column writes.
            table.score[table.placed_winner] += table.placed_points
    except _Unsure:
        return None
    finally:
        free(entries)
    return len(starts), (table.score[0], table.score[1]), first_score_line, tuple(problems)


def check_mat_game(
    MatText text, int start, int end, next_score, before, int length, bint crawford, bint jacoby,
    bint uses_cube, int highest_cube
):
    """One game of a .mat record of backgammon (its ``text``'s lines from its " Game n" line, the index
    ``start``, to ``end``) checked as :func:`check_mat_games` checks each, from the match
    ``before`` it: ``(number, score, crawford_played)``, the game's number, the score and whether
    the Crawford game was played before this game; or ``(None, None, crawford_played)`` to take
    the game up from its own score line. ``next_score``: the next game's score line, ``None``
    where it has none; ``False`` for the record's last game, which may be unfinished. Returns
    the score after it, whether the Crawford game has been played and whether the match is over; the number of the line (from 1) where the game, plainly clean until then,
    reaches a move or play not recorded (``???``), at which the pure checker stops it with its
    reader's problem; ``None`` where the game is not plainly clean.
    """
    cdef Table table
    _start_table(&table, length, crawford, jacoby, uses_cube, highest_cube)
    number, score, table.crawford_played = before
    if number is not None:
        table.number = number - 1
        table.score[0], table.score[1] = score
    table.next_score[0] = table.next_score[1] = -1
    if next_score:
        table.next_score[0], table.next_score[1] = next_score
    table.next_known = True  # (no score line: the pure checker's problem, as any other below)
    cdef Written* entries = _new_entries()
    cdef int stopped_line = -1
    try:
        _check_one(&table, text, start, end, next_score is False, number is None, entries)
        if table.problem == PROBLEM_UNREADABLE:
            stopped_line = entries[table.problem_entry].line
    except _Unsure:
        return None
    finally:
        free(entries)
    if stopped_line >= 0:
        return stopped_line + 1
    if table.problem != PROBLEM_NONE:
        return None  # the pure checker words it
    return (table.score[0], table.score[1]), table.crawford_played, table.match_over
