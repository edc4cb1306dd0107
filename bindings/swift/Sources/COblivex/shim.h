/* The C ABI of liboblivex, as installed (pkg-config oblivex gives -I). */
#include <oblivex.h>
