# tests/cli/pbwire.py - protobuf wire format for tests that build hostile
# or odd pprof files by hand: varint() and fld() (a field: wire type 0
# with an integer payload, else length-delimited bytes).  Imported with
# PYTHONPATH="$ROOT/tests/cli".
def varint(v):
    out = bytearray()
    while True:
        b = v & 0x7f
        v >>= 7
        if v:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def fld(n, wire, payload):
    if wire == 0:
        return varint(n << 3) + varint(payload)
    return varint(n << 3 | 2) + varint(len(payload)) + payload
