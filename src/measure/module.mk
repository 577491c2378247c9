# src/measure: the engine trail flame and trail history share: a private
# clone and worktrees, builds, capture through the profiler backends, the
# metric table, probe requests.
LIB_OBJS += src/measure/capture.o
LIB_OBJS += src/measure/metric.o
LIB_OBJS += src/measure/backend.o
LIB_OBJS += src/measure/backend_cpu.o
LIB_OBJS += src/measure/backend_command.o
LIB_OBJS += src/measure/backend_offcpu.o
LIB_OBJS += src/measure/backend_memory.o
LIB_OBJS += src/measure/probe_request.o
LIB_OBJS += src/measure/record_cmd.o
LIB_OBJS += src/measure/sample_run.o
LIB_OBJS += src/measure/git.o
LIB_OBJS += src/measure/repo.o
LIB_OBJS += src/measure/submodules.o
LIB_OBJS += src/measure/source_name.o
