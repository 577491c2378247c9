/*
 * fuzz_folded.c - libFuzzer target for the folded-stack parser and the
 * flame graph pipeline behind it: arbitrary bytes are read as folded
 * lines (profile/folded.h's rules), merged, laid out and written as SVG to
 * /dev/null, under every option that changes the code path (reverse,
 * flame chart, --base, differential colours, --cp map, minwidth %).
 * The first input byte picks the options so the fuzzer explores them.
 */
#include "flamegraph/input.h"
#include "flamegraph/layout.h"
#include "flamegraph/palette.h"
#include "flamegraph/svg.h"
#include "profile/folded.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static FILE *devnull;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fg_input_options io = { 0 };
	struct fg_layout_options lo = { 0 };
	struct fg_svg_options so = { 0 };
	struct fg_input in;
	struct fg_layout l;
	struct fg_palette_map map;
	struct fg_background custom;
	char bgbuf[8];
	uint8_t mode = size ? data[0] : 0;
	struct folded_line fl;

	if (!devnull)
		devnull = fopen("/dev/null", "w");
	if (size) {
		data++;
		size--;
	}
	/* the single-line parser on the raw bytes too */
	(void)folded_parse_line((const char *)data, size, &fl);

	io.reverse = mode & 1;
	io.base = (mode & 2) ? "b" : NULL;
	io.factor = (mode & 4) ? 0.5 : 1;
	fg_input_init(&in, &io);
	fg_input_read_buffer(&in, (const char *)data, size);
	if (!(mode & 8))
		fg_input_sort(&in);
	lo.width = 1180;
	lo.minwidth = (mode & 16) ? 1 : 0.1;
	lo.minwidth_percent = (mode & 16) != 0;
	lo.both = in.columns == 2;
	lo.total = (mode & 32) ? in.total[1] * 2 : 0;
	fg_layout_build(&l, &in, &lo);

	fg_palette_map_init(&map);
	so.nametype = "Function:";
	so.countname = "samples";
	so.fonttype = "Verdana";
	so.fontsize = 12;
	so.fontwidth = 0.59;
	so.frameheight = 16;
	so.width = (mode & 64) ? 300 : 0;
	so.nominal_width = 1200;
	so.inverted = (mode & 128) != 0;
	so.flamechart = (mode & 8) != 0;
	so.differential = in.columns == 2;
	so.diff.self = !(mode & 1);
	so.diff.negate = (mode & 2) != 0;
	so.diff.alpha = 0.01;
	so.diff.min_delta = (mode & 4) ? 0.01 : 0;
	so.diff.by_frame = (mode & 8) != 0;
	so.hide_noise = (mode & 64) != 0;
	so.truncate_right = (mode & 4) != 0;
	so.search_color = "rgb(230,0,230)";
	so.palette = fg_palette_find((mode & 32) ? "java" : "hot");
	so.cp = (mode & 16) ? &map : NULL;
	so.bg = fg_background_find("yellow", &custom, bgbuf, sizeof(bgbuf));
	if (in.total[0] > 0 || in.total[1] > 0)
		fg_svg_write(devnull, &l, &so);
	else
		fg_svg_write_error(devnull, &so, "ERROR: No valid input provided");
	fg_palette_map_release(&map);
	fg_layout_release(&l);
	fg_input_release(&in);
	return 0;
}
