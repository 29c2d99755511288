// Everything of the profile library (see README.md).
#pragma once

#include "pmcprofile/address_space.h"
#include "pmcprofile/objects.h"
#include "pmcprofile/profile.h"
#include "pmcprofile/session.h"
#include "pmcprofile/symbolizer.h"
#include "pmcprofile/sysroot.h"
