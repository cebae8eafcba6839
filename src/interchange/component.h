/*
 * component.h - what the GZoltar and CSV writers share about components
 * (component.c): which elements they write.
 */
#ifndef CULPRIT_INTERCHANGE_COMPONENT_H
#define CULPRIT_INTERCHANGE_COMPONENT_H

#include <stdbool.h>

#include "culprit/spectra.h"

/* Whether element is a component of those formats: a line or an opaque
 * element (the kinds a component name reads back as). */
bool component_written(const culprit_element *element);

#endif
