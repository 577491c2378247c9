# src/symbols: addresses to names - ELF symbol tables, separate debug
# files and their prepared copies, build-ids, kallsyms, demangling.
LIB_OBJS += src/symbols/build_id.o
LIB_OBJS += src/symbols/debuginfo.o
LIB_OBJS += src/symbols/kallsyms.o
LIB_OBJS += src/symbols/symtab.o
LIB_OBJS += src/symbols/symtree.o
LIB_OBJS += src/symbols/symbols.o
LIB_OBJS += src/symbols/symbols_elf.o
LIB_OBJS += src/symbols/symbols_inline.o
LIB_OBJS += src/symbols/dwarf_defs.o

UNIT_TESTS += tests/unit/test_build_id
UNIT_TESTS += tests/unit/test_symtree
