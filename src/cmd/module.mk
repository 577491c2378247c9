# src/cmd: one file per subcommand (glue only; the engines are in the
# library folders).
CMD_OBJS += src/cmd/bench.o
CMD_OBJS += src/cmd/cmd_util.o
CMD_OBJS += src/cmd/collapse.o
CMD_OBJS += src/cmd/diff.o
CMD_OBJS += src/cmd/explain.o
CMD_OBJS += src/cmd/flame.o
CMD_OBJS += src/cmd/flamegraph.o
CMD_OBJS += src/cmd/history.o
CMD_OBJS += src/cmd/history_bisect.o
CMD_OBJS += src/cmd/history_suite.o
CMD_OBJS += src/cmd/history_view.o
CMD_OBJS += src/cmd/history_common.o
CMD_OBJS += src/cmd/history_hosts.o
CMD_OBJS += src/cmd/option_values.o
CMD_OBJS += src/cmd/record.o
CMD_OBJS += src/cmd/top.o
