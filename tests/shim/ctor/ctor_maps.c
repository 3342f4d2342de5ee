/* Runs with libctor_maps.so, whose constructor maps memory. */
#include <stdio.h>

int ctor_maps_value(void);

int main(void)
{
	printf("ctor %d\n", ctor_maps_value());
	return 3;
}
