#include "CFakeEvdevDevice.h"
