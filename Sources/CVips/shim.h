#ifndef MEDIACTL_CVIPS_SHIM_H
#define MEDIACTL_CVIPS_SHIM_H

// libvips (Debian libvips-dev, 8.14) for MediaTransform, the only module that imports this target.
#include <vips/vips.h>

#endif
