# src/fleet: running work on other machines over ssh + git (hosts files,
# the remote scripts, jobs, host setup, local CPU slots).
LIB_OBJS += src/fleet/hosts.o
LIB_OBJS += src/fleet/remote.o
LIB_OBJS += src/fleet/fleet_jobs.o
LIB_OBJS += src/fleet/fleet_cpus.o
LIB_OBJS += src/fleet/fleet_setup.o
UNIT_TESTS += tests/unit/test_fleet_jobs
