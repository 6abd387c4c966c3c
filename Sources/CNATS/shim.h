// The NATS C client (Debian libnats-dev), for ParleyCluster's cluster delivery.
#include <nats/nats.h>
