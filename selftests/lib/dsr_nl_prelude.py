# SPDX-License-Identifier: GPL-2.0
# The prelude of selftests/dsr/netlink.sh's nl and nl_nobody: each case's
# Python program (a here-document of the test) runs after this text, in
# one program read from stdin: genl.py, A, P and C (the uapi's attributes,
# the parameters' attributes inside DSR_A_PARAMS, and commands by name),
# pnest() (the DSR_A_PARAMS nest of some parameters), params() (the
# parameters of GET_PARAMS, by P), g (a client of the dsr family), dev
# (the dsr0 attribute), fail().  Not a module: it needs AH_ROOT in the
# environment.
import errno, os, re, socket, struct, sys
ROOT = os.environ["AH_ROOT"]
sys.path.insert(0, ROOT + "/selftests/lib")
from genl import Genl, attr, nest, parse_attrs, u32, \
    NL_POLICY_TYPE_ATTR_MIN_VALUE_U as PMIN, \
    NL_POLICY_TYPE_ATTR_MAX_VALUE_U as PMAX  # noqa: E402


def uapi_enum(name):
    text = open(ROOT + "/include/uapi/linux/ah_dsr.h").read()
    body = re.search(r"enum %s \{(.*?)\};" % name, text, re.S).group(1)
    body = re.sub(r"/\*.*?\*/", "", body, flags=re.S)
    names = [n.strip() for n in body.split(",") if n.strip()]
    return {n: i for i, n in enumerate(names)}


A, C = uapi_enum("dsr_attr"), uapi_enum("dsr_cmd")
A_MAX = len(A) - 2                      # __DSR_A_MAX is the last
P = uapi_enum("dsr_param_attr")         # inside DSR_A_PARAMS
P_MAX = len(P) - 2                      # __DSR_A_P_MAX is the last
failed = False


def fail(what):
    global failed
    failed = True
    print("# FAILED: " + what)


def ip(a):
    return attr(A["DSR_A_DST"], socket.inet_aton(a))


def pnest(*attrs):
    """The parameters' nest (NLA_F_NESTED set, as strict validation
    requires) holding attrs."""
    return nest(A["DSR_A_PARAMS"], *attrs)


def params(g, dev):
    """The parameters of dsr0: payload by P's numbers."""
    err, msgs = g.do(C["DSR_CMD_GET_PARAMS"], dev)
    assert err == 0, g.extack
    return dict(parse_attrs(dict(msgs[0])[A["DSR_A_PARAMS"]]))


g = Genl("dsr")
dev = attr(A["DSR_A_IFNAME"], "dsr0")
