/* forkgate_test - shim/forkgate.c's `order` lock, which the calls of a
 * process that forked while threaded take one at a time: a waiter gives
 * the lock up (DRAIN_NS, 1 s) only when one holder keeps it that long,
 * not when it waited that long behind holders that each let go.
 *
 * X takes the lock and holds it 0.7 s; Y, then W queue for it (futex
 * waiters wake in the order they came).  X lets go: Y takes it and holds
 * it 0.7 s.  W has waited 1.2 s by then, past DRAIN_NS, though no holder
 * held the lock 1 s; it must still wait for Y, not go in beside it.
 * Given up, every later call of the process would overlap as before
 * (tests/shim/ordered-calls.t under load once: "overlaps 130"). */
#include "shim/forkgate.c"

#include <pthread.h>
#include <unistd.h>
#include "tests/tap.h"

#define HOLD_US 700000

static pthread_barrier_t enrolled, ordered_now;
static volatile int holding;        /* X or Y is between take and let go */
static volatile int w_beside = -1;  /* W went in while X or Y held it: 1 */
static volatile int y_queued, w_queued;

static void call_once(void)
{
	forkgate_enter();
	forkgate_order_done();
	forkgate_leave();
}

static void hold(void)
{
	forkgate_enter();
	__atomic_store_n(&holding, 1, __ATOMIC_SEQ_CST);
	usleep(HOLD_US);
	__atomic_store_n(&holding, 0, __ATOMIC_SEQ_CST);
	forkgate_order_done();
	forkgate_leave();
}

/* Each thread: known to the gate by one call, then waits for the fork
 * that orders its calls from then on. */
static void known_then_ordered(void)
{
	call_once();
	pthread_barrier_wait(&enrolled);
	pthread_barrier_wait(&ordered_now);
}

static void *thread_x(void *arg)
{
	(void)arg;
	known_then_ordered();
	hold();
	return NULL;
}

static void *thread_y(void *arg)
{
	(void)arg;
	known_then_ordered();
	while (!__atomic_load_n(&holding, __ATOMIC_SEQ_CST))
		usleep(1000);
	y_queued = 1;
	hold();
	return NULL;
}

static void *thread_w(void *arg)
{
	(void)arg;
	known_then_ordered();
	while (!y_queued)
		usleep(1000);
	usleep(100000);             /* after Y in the futex's queue */
	w_queued = 1;
	forkgate_enter();
	w_beside = __atomic_load_n(&holding, __ATOMIC_SEQ_CST);
	forkgate_order_done();
	forkgate_leave();
	return NULL;
}

int main(void)
{
	pthread_t t[3];
	void *(*fn[3])(void *) = { thread_x, thread_y, thread_w };
	pthread_barrier_init(&enrolled, NULL, 4);
	pthread_barrier_init(&ordered_now, NULL, 4);
	for (int i = 0; i < 3; i++)
		if (pthread_create(&t[i], NULL, fn[i], NULL) != 0) {
			ok(0, "pthread_create");
			return done_testing();
		}
	pthread_barrier_wait(&enrolled);
	/* a fork while the three are enrolled: their calls take `order` */
	forkgate_close();
	forkgate_open();
	ok(ordered, "a fork while other threads are enrolled orders their calls");
	pthread_barrier_wait(&ordered_now);
	for (int i = 0; i < 3; i++)
		pthread_join(t[i], NULL);
	ok(w_queued, "W queued behind X and Y");
	ok(w_beside == 0, "W waited past DRAIN_NS behind two holders of 0.7 s and went in after them "
	                  "(beside one: %d)", w_beside);
	ok(!order_broken, "the lock is not given up: no holder kept it DRAIN_NS");
	return done_testing();
}
