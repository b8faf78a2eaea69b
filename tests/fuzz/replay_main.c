/*
 * Replays fuzz inputs through a target outside libFuzzer, for ctest: every file of the
 * corpus directory, then (with --seeds FILE) every fixture file matched by the patterns in
 * FILE.  Each pattern line is "<subdirectory glob under $PAIMON_FIXTURES>" such as
 * "* /manifest/manifest-*" (without the space); '#' starts a comment.  Under the
 * sanitizers, a crash or report ends the process with an error, which fails the test.
 */
#include <dirent.h>
#include <glob.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int run_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    uint8_t *data;
    long n;
    if (f == NULL) {
        fprintf(stderr, "replay: cannot open %s\n", path);
        return 1;
    }
    fseek(f, 0, SEEK_END);
    n = ftell(f);
    fseek(f, 0, SEEK_SET);
    data = malloc(n > 0 ? (size_t)n : 1);
    if (data == NULL || fread(data, 1, (size_t)n, f) != (size_t)n) {
        fprintf(stderr, "replay: cannot read %s\n", path);
        fclose(f);
        free(data);
        return 1;
    }
    fclose(f);
    LLVMFuzzerTestOneInput(data, (size_t)n);
    free(data);
    return 0;
}

static int run_dir(const char *dir, int *count)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    int failed = 0;
    if (d == NULL)
        return 0; /* an absent corpus is an empty one */
    while ((e = readdir(d)) != NULL) {
        char path[4096];
        struct stat st;
        if (e->d_name[0] == '.')
            continue;
        snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
        if (stat(path, &st) == 0 && S_ISREG(st.st_mode)) {
            failed |= run_file(path);
            (*count)++;
        }
    }
    closedir(d);
    return failed;
}

static int run_seeds(const char *list, int *count)
{
    const char *fixtures = getenv("PAIMON_FIXTURES");
    FILE *f = fopen(list, "r");
    char line[1024];
    int failed = 0;
    if (f == NULL || fixtures == NULL) {
        if (f != NULL)
            fclose(f);
        return 0;
    }
    while (fgets(line, sizeof(line), f) != NULL) {
        char pattern[4096];
        glob_t g;
        line[strcspn(line, "\r\n#")] = '\0';
        if (line[0] == '\0')
            continue;
        snprintf(pattern, sizeof(pattern), "%s/%s", fixtures, line);
        if (glob(pattern, 0, NULL, &g) == 0) {
            for (size_t i = 0; i < g.gl_pathc; i++) {
                failed |= run_file(g.gl_pathv[i]);
                (*count)++;
            }
        }
        globfree(&g);
    }
    fclose(f);
    return failed;
}

int main(int argc, char **argv)
{
    int count = 0, failed = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--seeds") == 0 && i + 1 < argc)
            failed |= run_seeds(argv[++i], &count);
        else
            failed |= run_dir(argv[i], &count);
    }
    printf("replayed %d inputs\n", count);
    return failed;
}
