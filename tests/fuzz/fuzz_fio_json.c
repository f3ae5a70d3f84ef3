/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_fio_json: the parser of fio's --output-format=json text that the
 * layered run reads back (model/layers.c lyr_fio_parse, called from
 * mpibench/layers/layers_device.c on fio's output, NUL-terminated as here).
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>

#include "fuzz_util.h"
#include "layers.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ios_err err = {0};
	struct lyr_fio out;
	char *text = fuzz_strndup(data, size);
	int rc = lyr_fio_parse(text, &out, &err);

	fuzz_note("lyr_fio_parse", rc, err.msg);

	if (rc == 0 && out.jobs < 1)
		abort(); /* success means a non-empty "jobs" array */
	if (rc < 0 && (rc != -EINVAL || !err.msg[0]))
		abort();
	free(text);
	return 0;
}
