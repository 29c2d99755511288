// Everything of the profile library (see README.md).
// docs/library.md is the guide, examples/top_functions.cpp a program that compiles.
// CMake: find_package(pmclog CONFIG), target pmclog::pmcprofile (or pmclog::pmcprofile_static);
// pkg-config: pmcprofile.
#pragma once

#include "pmcprofile/address_space.h"
#include "pmcprofile/diff.h"
#include "pmcprofile/objects.h"
#include "pmcprofile/pmu_events.h"
#include "pmcprofile/profile.h"
#include "pmcprofile/session.h"
#include "pmcprofile/symbolizer.h"
#include "pmcprofile/sysroot.h"
#include "pmcprofile/views.h"
