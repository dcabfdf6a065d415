#include <nfc/nfc.h>
