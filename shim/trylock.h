/* trylock.h - a lock the recorder only tries for a while.  A hook may run
 * in a signal handler while its own thread holds the lock in the code the
 * signal interrupted; spinning there would never end, so after a short
 * wait (long enough for another thread's few loads and stores) the caller
 * gets 0 and does without. */
#ifndef SHIM_TRYLOCK_H
#define SHIM_TRYLOCK_H

static inline int trylock_take(int *lock)
{
	for (int spin = 0; spin < 256; spin++) {
		if (!__atomic_exchange_n(lock, 1, __ATOMIC_ACQUIRE))
			return 1;
		__builtin_ia32_pause();
	}
	return 0;
}

static inline void trylock_give(int *lock)
{
	__atomic_store_n(lock, 0, __ATOMIC_RELEASE);
}

#endif
