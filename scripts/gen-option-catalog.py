#!/usr/bin/env python3
"""Generates src/meta/option_catalog_table.inc: the table options Java Paimon 1.4.2 knows.

The facts (option keys, value types, enum values, @Immutable, fallback keys and each
option's default) are read from the Java sources of release 1.4.2: CoreOptions.java,
FlinkConnectorOptions.java, and the enums they use that live in files of their own
(TableType.java):

  R=/work/.mirror/apache+paimon/repo; V=release-1.4.2
  git -C $R show $V:paimon-api/src/main/java/org/apache/paimon/CoreOptions.java > CoreOptions.java
  git -C $R show $V:paimon-flink/paimon-flink-common/src/main/java/org/apache/paimon/flink/FlinkConnectorOptions.java > FlinkConnectorOptions.java
  git -C $R show $V:paimon-api/src/main/java/org/apache/paimon/TableType.java > TableType.java
  scripts/gen-option-catalog.py CoreOptions.java FlinkConnectorOptions.java TableType.java > src/meta/option_catalog_table.inc

Defaults are written as text that the option's own parser reads (src/util/units.h), so a
default and a user's value go through the same grammar: MemorySize.ofMebiBytes(8) is
"8 mb", Duration.ofHours(1) is "1 h", an enum constant is its string value.  An option
declared with .noDefaultValue() has NULL.  A default this script cannot resolve stops it
(exit 1): nothing is guessed.
"""
import re
import sys

MEMORY_CONSTANTS = {'MAX_VALUE': '9223372036854775807 b', 'ZERO': '0 b',
                    'VALUE_32_KB': '32 kb', 'VALUE_8_MB': '8 mb', 'VALUE_128_MB': '128 mb',
                    'VALUE_256_MB': '256 mb'}
MEMORY_FACTORIES = {'ofBytes': 'b', 'ofKibiBytes': 'kb', 'ofMebiBytes': 'mb'}
DURATION_FACTORIES = {'ofNanos': 'ns', 'ofMillis': 'ms', 'ofSeconds': 's', 'ofMinutes': 'min',
                      'ofHours': 'h', 'ofDays': 'd'}
NUMBER_CONSTANTS = {'Integer.MAX_VALUE': '2147483647', 'Integer.MIN_VALUE': '-2147483648',
                    'Long.MAX_VALUE': '9223372036854775807',
                    'Long.MIN_VALUE': '-9223372036854775808'}


def enums_of(src):
    """{enum name: [(constant, string value)]}: a DescribedEnum's value is the first
    constructor argument; a plain enum's is its constant name (Enum.toString)."""
    enums = {}
    for m in re.finditer(r'public enum (\w+) implements DescribedEnum \{(.*?)\n(?:    )?\}', src,
                         re.S):
        enums[m.group(1)] = re.findall(r'^\s+([A-Z_0-9]+)\(\s*"([^"]*)"', m.group(2), re.M)
    for m in re.finditer(r'public enum (\w+) \{(.*?)\n    \}', src, re.S):
        body = re.sub(r'/\*.*?\*/|//[^\n]*', '', m.group(2), flags=re.S).split(';')[0]
        if '(' not in body:
            names = [v.strip() for v in body.split(',') if v.strip()]
            enums[m.group(1)] = [(n, n) for n in names]
    return enums


def string_constants(src):
    return dict(re.findall(r'public static final String (\w+) = "([^"]*)";', src))


def balanced(text, start):
    """The text inside the parentheses that open at text[start]."""
    depth = 0
    for i in range(start, len(text)):
        if text[i] == '(':
            depth += 1
        elif text[i] == ')':
            depth -= 1
            if depth == 0:
                return text[start + 1:i]
    raise ValueError('unbalanced parentheses')


def java_string(literal):
    return re.sub(r'\\(.)', lambda m: {'n': '\n', 't': '\t'}.get(m.group(1), m.group(1)),
                  literal)


def resolve_default(expr, typ, enums, constants, key):
    e = expr.strip()
    m = re.fullmatch(r'"((?:[^"\\]|\\.)*)"', e)
    if m:
        return java_string(m.group(1))
    if e in ('true', 'false'):
        return e
    if e in NUMBER_CONSTANTS:
        return NUMBER_CONSTANTS[e]
    m = re.fullmatch(r'(-?[0-9_]+)[lL]?', e)
    if m:
        return m.group(1).replace('_', '')
    m = re.fullmatch(r'(-?[0-9_]*\.[0-9_]*(?:[eE][-+]?[0-9]+)?)[fFdD]?', e)
    if m:
        return m.group(1).replace('_', '')
    m = re.fullmatch(r'MemorySize\.parse\("([^"]*)"\)', e)
    if m:
        return m.group(1)
    m = re.fullmatch(r'MemorySize\.(\w+)\((\d+)[lL]?\)', e)
    if m and m.group(1) in MEMORY_FACTORIES:
        return '%s %s' % (m.group(2), MEMORY_FACTORIES[m.group(1)])
    m = re.fullmatch(r'MemorySize\.(\w+)', e)
    if m and m.group(1) in MEMORY_CONSTANTS:
        return MEMORY_CONSTANTS[m.group(1)]
    m = re.fullmatch(r'Duration\.(\w+)\((\d+)[lL]?\)', e)
    if m and m.group(1) in DURATION_FACTORIES:
        return '%s %s' % (m.group(2), DURATION_FACTORIES[m.group(1)])
    if re.fullmatch(r'new HashMap<[^>]*>\(\)', e):
        return ''  # an empty map: no items
    m = re.fullmatch(r'(?:CoreOptions\.)?(\w+)\.(\w+)', e)
    if m and m.group(1) in enums:
        for const, value in enums[m.group(1)]:
            if const == m.group(2):
                return value
    m = re.fullmatch(r'(?:CoreOptions\.)?([A-Z_0-9]+)', e)
    if m and m.group(1) in constants:
        return constants[m.group(1)]
    sys.exit('gen-option-catalog: cannot resolve the default of %s: %s' % (key, expr))


def options_of(src, engine, enums, constants):
    pat = (r'((?:\s*@\w+(?:\([^)]*\))?\n)*)\s*public static final ConfigOption<[^=]*=\s*'
           r'(?:ConfigOptions\.)?key\("([^"]+)"\)(.*?);\n')
    for m in re.finditer(pat, src, re.S):
        ann, key, chain = m.group(1), m.group(2), m.group(3)
        t = re.search(r'\.(\w+)Type\(', chain)
        typ = t.group(1) if t else 'string'
        values = None
        if typ == 'enum':
            pairs = enums.get(re.search(r'enumType\((\w+)\.class', chain).group(1))
            if pairs is None:
                typ = 'string'  # an enum defined elsewhere: recorded, not checked
            else:
                values = [v for _, v in pairs]
        aliases = []
        for call in ('withFallbackKeys', 'withDeprecatedKeys'):
            f = re.search(call + r'\(([^)]*)\)', chain)
            if f:
                aliases += re.findall(r'"([^"]+)"', f.group(1))
        d = chain.find('.defaultValue(')
        if d >= 0:
            dflt = resolve_default(balanced(chain, d + len('.defaultValue')), typ, enums,
                                   constants, key)
        elif '.noDefaultValue()' in chain:
            dflt = None
        else:
            sys.exit('gen-option-catalog: %s declares neither a default nor none' % key)
        yield key, typ, '@Immutable' in ann, values, aliases, engine, dflt


TYPES = {'int': 'PM_OPT_INT', 'long': 'PM_OPT_LONG', 'boolean': 'PM_OPT_BOOL',
         'double': 'PM_OPT_DOUBLE', 'float': 'PM_OPT_DOUBLE', 'string': 'PM_OPT_STRING',
         'memory': 'PM_OPT_MEMORY', 'duration': 'PM_OPT_DURATION', 'enum': 'PM_OPT_ENUM',
         'map': 'PM_OPT_MAP'}


def c_string(s):
    if s is None:
        return 'NULL'
    return '"%s"' % s.replace('\\', '\\\\').replace('"', '\\"').replace('\n', '\\n')


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    sources = [open(p).read() for p in sys.argv[1:]]
    enums, constants = {}, {}
    for src in sources:
        enums.update(enums_of(src))
    constants.update(string_constants(sources[0]))  # CoreOptions' constants
    rows = {}
    for i, src in enumerate(sources[:2]):
        for key, typ, imm, values, aliases, engine, dflt in options_of(src, i > 0, enums,
                                                                       constants):
            for k, alias_of in [(key, None)] + [(a, key) for a in aliases]:
                if k in rows:
                    continue
                flags = []
                if imm:
                    flags.append('PM_OPT_IMMUTABLE')
                if engine:
                    flags.append('PM_OPT_ENGINE')
                vals = None if not values else '|'.join(values)
                # an alias is read through the option it stands for: its default is that one
                rows[k] = '{"%s", %s, %s, %s, %s, %s},' % (
                    k, TYPES[typ], ' | '.join(flags) or '0', c_string(vals),
                    c_string(alias_of), c_string(dflt if alias_of is None else None))
    print('/* Generated by scripts/gen-option-catalog.py from Java Paimon release-1.4.2')
    print(' * CoreOptions.java, FlinkConnectorOptions.java and TableType.java; sorted by key.')
    print(' * Columns: key, type, flags, enum values, the option an alias stands for, the')
    print(' * default as text its type\'s parser reads (NULL: no default).  Do not edit. */')
    for k in sorted(rows):
        print(rows[k])


main()
