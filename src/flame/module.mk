# src/flame: the regression localiser (trail flame): ends, hot diff,
# suspects, narrowing, culprits, confirmation, report; probing over the fleet.
LIB_OBJS += src/flame/blockers.o
LIB_OBJS += src/flame/probe.o
LIB_OBJS += src/flame/probe_cmd.o
LIB_OBJS += src/flame/shares.o
LIB_OBJS += src/flame/report.o
LIB_OBJS += src/flame/report_facts.o
LIB_OBJS += src/flame/report_handoffs.o
LIB_OBJS += src/flame/report_html.o
LIB_OBJS += src/flame/report_html_probes.o
LIB_OBJS += src/flame/report_html_text.o
LIB_OBJS += src/flame/report_culprits.o
LIB_OBJS += src/flame/session.o
LIB_OBJS += src/flame/session_query.o
LIB_OBJS += src/flame/ends.o
LIB_OBJS += src/flame/confirm.o
LIB_OBJS += src/flame/hotdiff.o
LIB_OBJS += src/flame/suspects.o
LIB_OBJS += src/flame/narrow.o
LIB_OBJS += src/flame/decide.o
LIB_OBJS += src/flame/estimate.o
LIB_OBJS += src/flame/kary.o
LIB_OBJS += src/flame/probe_json.o
LIB_OBJS += src/flame/fleet.o
LIB_OBJS += src/flame/fleet_report.o
LIB_OBJS += src/flame/segment.o
LIB_OBJS += src/flame/culprits.o

UNIT_TESTS += tests/unit/test_flame
UNIT_TESTS += tests/unit/test_flame_estimate
UNIT_TESTS += tests/unit/test_flame_time
UNIT_TESTS += tests/unit/test_flame_calibrate
UNIT_TESTS += tests/unit/test_flame_segment
UNIT_TESTS += tests/unit/test_flame_report
UNIT_TESTS += tests/unit/test_flame_record_cmd
UNIT_TESTS += tests/unit/test_flame_fleet
UNIT_TESTS += tests/unit/test_flame_probe_request
