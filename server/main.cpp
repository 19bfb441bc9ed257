// toolgate's entry point: serves the compiled-in catalogue.
#include "server/app.hpp"
#include "server/catalogue_service.hpp"

int main(int argc, char** argv)
{
    return toolgate::server::run_main(argc, argv, toolgate::server::make_catalogue_service);
}
