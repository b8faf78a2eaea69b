/* The randomized model test (tests/lib/model_run.h) for every changelog producer and
 * deletion-vector setting of one merge engine; the other engines have their own executables
 * so that ctest runs them side by side. */
#include "testlib.h"

#include "model_run.h"

int main(void)
{
    return pm_model_main(PM_MODEL_FIRST_ROW);
}
