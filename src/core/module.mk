# src/core: reusable pieces that never print data and never exit
# (except on out-of-memory).
LIB_OBJS += src/core/alloc.o
LIB_OBJS += src/core/arena.o
LIB_OBJS += src/core/cache_dir.o
LIB_OBJS += src/core/child.o
LIB_OBJS += src/core/decompress.o
LIB_OBJS += src/core/cleanup.o
LIB_OBJS += src/core/error.o
LIB_OBJS += src/core/escape.o
LIB_OBJS += src/core/exit_codes.o
LIB_OBJS += src/core/file_map.o
LIB_OBJS += src/core/gzip_buf.o
LIB_OBJS += src/core/gather.o
LIB_OBJS += src/core/hashmap.o
LIB_OBJS += src/core/intern.o
LIB_OBJS += src/core/json.o
LIB_OBJS += src/core/json_writer.o
LIB_OBJS += src/core/line_map.o
LIB_OBJS += src/core/line_reader.o
LIB_OBJS += src/core/options.o
LIB_OBJS += src/core/parse_number.o
LIB_OBJS += src/core/progress.o
LIB_OBJS += src/core/shell_quote.o
LIB_OBJS += src/core/protobuf.o
LIB_OBJS += src/core/radix_sort.o
LIB_OBJS += src/core/program.o
LIB_OBJS += src/core/strbuf.o
LIB_OBJS += src/core/strbuf_io.o
LIB_OBJS += src/core/string_list.o
LIB_OBJS += src/core/verdict.o

UNIT_TESTS += tests/unit/test_core
UNIT_TESTS += tests/unit/test_error
UNIT_TESTS += tests/unit/test_escape
UNIT_TESTS += tests/unit/test_hashmap
UNIT_TESTS += tests/unit/test_json_writer
UNIT_TESTS += tests/unit/test_protobuf
