"""The random stream of the compiled code: numpy's legacy one (``np.random.seed`` with a whole number, then
``np.random.random``: the Mersenne Twister MT19937, a float of 53 bits from two draws), written in the subset the
IR writer compiles, so that the compiled code draws what the same module run as plain Python draws from numpy.

``mt_twist``, the words made again every 624 draws, is kept out of its callers (module.NOT_INLINED); the draws
are written into every caller. Its state is ``MT``, the runtime state's first 625 numbers (the 624 words, then
the next word's index): one state in a process, as numpy's global stream is one, whichever module draws
(jit.py)."""

MT_WORDS = 624  # the state's words (then the next word's index)

SOURCE = '''
def mt_seed(s):
    MT[0] = s & 4294967295
    for i in range(1, 624):
        prev = MT[i - 1]
        MT[i] = (1812433253 * (prev ^ (prev >> 30)) + i) & 4294967295
    MT[624] = 624


def mt_twist():
    for k in range(624):
        y = (MT[k] & 2147483648) | (MT[(k + 1) % 624] & 2147483647)
        w = MT[(k + 397) % 624] ^ (y >> 1)
        if y & 1:
            w = w ^ 2567483615
        MT[k] = w
    MT[624] = 0


def mt_word():
    if MT[624] >= 624:
        mt_twist()
    i = MT[624]
    y = MT[i]
    MT[624] = i + 1
    y = y ^ (y >> 11)
    y = y ^ ((y << 7) & 2636928640)
    y = y ^ ((y << 15) & 4022730752)
    return y ^ (y >> 18)


def mt_random():
    a = mt_word() >> 5
    b = mt_word() >> 6
    return (a * 67108864.0 + b) / 9007199254740992.0
'''
